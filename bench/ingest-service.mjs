// The service side of `bench/ingest.mjs`: `frontdesk serve` as a child process, the admin CLI that
// seeds it, its memory and CPU read from /proc, a throw-away Postgres database, and the store's own
// account of what was indexed (documents and chunks), read once the measurement is over.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { BenchFailure, createBenchDatabase, freePort, runAdmin, sleep, waitForHealth } from "./bench-service.mjs";

export { BenchFailure, createBenchDatabase, freePort, runAdmin, sleep };

const CLOCK_TICKS_PER_SECOND = 100;


export function log(message) {
  process.stderr.write(`[bench] ${message}\n`);
}



/** VmRSS and VmHWM (peak RSS) of a process, in MiB, from /proc/<pid>/status. */
export function readMemory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { rssMiB: kib("VmRSS") / 1024, hwmMiB: kib("VmHWM") / 1024 };
}

/** User + system CPU seconds the process has used so far (all its threads), from /proc/<pid>/stat. */
export function readCpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

/** Busy and total CPU ticks of the whole machine (all cores), from /proc/stat. */
export function readMachineCpuTicks() {
  const [, ...fields] = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields.map(Number);
  const busy = user + nice + system + irq + softirq + steal;
  return { busy, total: busy + idle + iowait };
}

/** Samples VmRSS every `intervalMs`; `peakMiB` is the highest sample since the last `reset`. */
export function sampleMemory(pid, intervalMs = 100) {
  let peakMiB = 0;
  const timer = setInterval(() => {
    try {
      peakMiB = Math.max(peakMiB, readMemory(pid).rssMiB);
    } catch {
      // the process is gone; stop() follows
    }
  }, intervalMs);
  timer.unref();
  return {
    get peakMiB() {
      return peakMiB;
    },
    reset() {
      peakMiB = readMemory(pid).rssMiB;
    },
    stop: () => clearInterval(timer),
  };
}


/**
 * Starts `node bin/frontdesk serve --port <free>` under `root` with exactly the environment
 * `env`; resolves once GET /healthz answers 200.
 */
export async function startService({ root, env, cpuProfileDir }) {
  const port = await freePort();
  const nodeArguments = cpuProfileDir ? ["--cpu-prof", "--cpu-prof-dir", cpuProfileDir] : [];
  const child = spawn(process.execPath, [...nodeArguments, join(root, "bin", "frontdesk"), "serve", "--port", String(port)], {
    cwd: root,
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (text) => {
    stderr = (stderr + text).slice(-20_000);
  });
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const baseUrl = `http://127.0.0.1:${port}`;
  let health;
  try {
    health = await waitForHealth(baseUrl, child, 60_000);
  } catch (error) {
    child.kill("SIGKILL");
    throw new BenchFailure(`${error.message}\n${stderr}`);
  }
  return {
    pid: child.pid,
    baseUrl,
    health,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
      const outcome = await exited;
      clearTimeout(timer);
      return outcome;
    },
  };
}



/**
 * CPU seconds used so far by the Postgres backends serving `database` (read from /proc, so only on
 * this machine), keyed by backend pid; the service keeps its pool open, so the set barely changes.
 */
export async function readPostgresBackendCpu(adminUrl, database) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query(`SELECT pid FROM pg_stat_activity WHERE datname = $1`, [database]);
    const seconds = new Map();
    for (const { pid } of rows) {
      try {
        seconds.set(pid, readCpuSeconds(pid));
      } catch {
        // the backend ended meanwhile
      }
    }
    return seconds;
  } finally {
    await client.end();
  }
}

/** CPU seconds the backends used between two readings (backends that started meanwhile count in full). */
export function backendCpuBetween(before, after) {
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
  return total;
}

const INDEX_SUMMARY_SQL = `
  SELECT s.kind,
         count(*) FILTER (WHERE d.status = 'indexed')::int AS documents,
         coalesce(sum(d.chunk_count) FILTER (WHERE d.status = 'indexed'), 0)::int AS chunks,
         coalesce(array_agg(extract(epoch FROM d.indexed_at)::float8 ORDER BY d.indexed_at)
                  FILTER (WHERE d.indexed_at IS NOT NULL), '{}') AS indexed_at,
         extract(epoch FROM min(d.created_at))::float8 AS first_created_at
  FROM documents d JOIN sources s ON s.id = d.source_id
  GROUP BY s.kind`;

function summarise(rows, chunkRows) {
  const byKind = {};
  for (const row of rows) {
    byKind[row.kind] = {
      documents: row.documents,
      chunks: row.chunks,
      indexedAt: row.indexed_at.map((value) => Number(value) * 1000),
      firstCreatedAt: Number(row.first_created_at) * 1000,
    };
  }
  return { byKind, chunkRows: Number(chunkRows) };
}

/** What the store says was indexed, per source kind, read over a Postgres connection. */
export async function readIndexSummaryFromPostgres(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(INDEX_SUMMARY_SQL);
    const { rows: count } = await client.query(`SELECT count(*)::int AS n FROM chunks`);
    return summarise(rows, count[0].n);
  } finally {
    await client.end();
  }
}

/** The same, from a PGlite data directory once `serve` has stopped (PGlite is single-process). */
export async function readIndexSummaryFromPglite(dataDir) {
  const { PGlite } = await import("@electric-sql/pglite");
  const { vector } = await import("@electric-sql/pglite-pgvector");
  const db = await PGlite.create(join(dataDir, "pglite"), { extensions: { vector } });
  try {
    const { rows } = await db.query(INDEX_SUMMARY_SQL);
    const { rows: count } = await db.query(`SELECT count(*)::int AS n FROM chunks`);
    return summarise(rows, count[0].n);
  } finally {
    await db.close();
  }
}
