// The service side of `bench/answers.mjs`: `frontdesk serve` as a child process, the admin CLI,
// a throw-away Postgres database, the store's own count of chunks, and CPU use read from /proc.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { BenchFailure, createBenchDatabase, freePort, runAdmin, sleep, waitForHealth } from "./bench-service.mjs";

export { BenchFailure, createBenchDatabase, freePort, runAdmin, sleep };

const CLOCK_TICKS_PER_SECOND = 100;


export function log(message) {
  process.stderr.write(`[answers] ${message}\n`);
}



/** User + system CPU seconds a process has used so far, from /proc/<pid>/stat. */
export function processCpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

/** CPU seconds used so far by each Postgres backend serving `databaseName`, by pid. */
export function postgresBackendCpuSeconds(databaseName) {
  const used = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const command = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (command.startsWith("postgres:") && command.includes(` ${databaseName} `)) used.set(entry, processCpuSeconds(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return used;
}

/** Busy and total jiffies of the whole machine, from the first line of /proc/stat. */
export function machineJiffies() {
  const [, ...values] = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/);
  const numbers = values.map(Number);
  const idle = numbers[3] + (numbers[4] ?? 0);
  const total = numbers.reduce((sum, value) => sum + value, 0);
  return { busy: total - idle, total };
}


/**
 * `node [--cpu-prof] bin/frontdesk serve --port <free>` under `root` with exactly `env`; resolves
 * once GET /healthz answers 200. `warnings()` counts the log lines at warn level and above.
 */
export async function startService({ root, env, cpuProfileDir }) {
  const port = await freePort();
  const nodeArguments = cpuProfileDir ? ["--cpu-prof", "--cpu-prof-dir", cpuProfileDir] : [];
  const child = spawn(process.execPath, [...nodeArguments, join(root, "bin", "frontdesk"), "serve", "--port", String(port)], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let logLines = 0;
  const collect = (text) => {
    logLines += text.split("\n").filter((line) => line.trim() !== "").length;
    output = (output + text).slice(-20_000);
  };
  child.stdout.setEncoding("utf8").on("data", collect);
  child.stderr.setEncoding("utf8").on("data", collect);
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(baseUrl, child, 120_000);
  } catch (error) {
    child.kill("SIGKILL");
    throw new BenchFailure(`${error.message}\n${output}`);
  }
  return {
    pid: child.pid,
    baseUrl,
    output: () => output,
    logLines: () => logLines,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
      const outcome = await exited;
      clearTimeout(timer);
      return outcome;
    },
  };
}



const STORE_SUMMARY_SQL = `
  SELECT (SELECT count(*)::int FROM chunks) AS chunks,
         (SELECT count(*)::int FROM documents WHERE status = 'indexed') AS documents,
         (SELECT count(*)::int FROM documents WHERE status <> 'indexed') AS not_indexed,
         (SELECT coalesce(round(avg(token_estimate)), 0)::int FROM chunks) AS mean_chunk_tokens`;

function summarise(row) {
  return { chunks: row.chunks, documents: row.documents, notIndexed: row.not_indexed, meanChunkTokens: row.mean_chunk_tokens };
}

/**
 * What the Postgres store holds, and whether the planner has statistics for `chunks` (autovacuum
 * analyses it some time after the bulk insert; `analyze` runs ANALYZE now).
 */
export async function inspectPostgres(url, { analyze = false } = {}) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    if (analyze) await client.query(`ANALYZE`);
    const { rows } = await client.query(STORE_SUMMARY_SQL);
    const { rows: stats } = await client.query(
      `SELECT relname, n_live_tup::int, last_analyze, last_autoanalyze FROM pg_stat_user_tables WHERE relname IN ('chunks', 'messages', 'documents') ORDER BY relname`,
    );
    return { ...summarise(rows[0]), tableStatistics: stats };
  } finally {
    await client.end();
  }
}

/** The same from a PGlite data directory, once `serve` has stopped (PGlite is single-process). */
export async function inspectPglite(dataDir, { analyze = false } = {}) {
  const { PGlite } = await import("@electric-sql/pglite");
  const { vector } = await import("@electric-sql/pglite-pgvector");
  const db = await PGlite.create(join(dataDir, "pglite"), { extensions: { vector } });
  try {
    if (analyze) await db.query(`ANALYZE`);
    const { rows } = await db.query(STORE_SUMMARY_SQL);
    const { rows: stats } = await db.query(
      `SELECT relname, n_live_tup::int, last_analyze, last_autoanalyze FROM pg_stat_user_tables WHERE relname IN ('chunks', 'messages', 'documents') ORDER BY relname`,
    );
    return { ...summarise(rows[0]), tableStatistics: stats };
  } finally {
    await db.close();
  }
}
