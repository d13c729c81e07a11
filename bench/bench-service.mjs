// What the benchmarks share: a free port, the admin CLI, a throw-away Postgres database,
// `frontdesk serve` as a child process, the Sources API, a store read after a run, and CPU use read
// from /proc.
import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";

const run = promisify(execFile);

/** A benchmark that cannot go on (the message says why). */
export class BenchFailure extends Error {}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export async function waitForHealth(baseUrl, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new BenchFailure(`frontdesk serve exited with code ${child.exitCode} before it was healthy`);
    try {
      const response = await fetch(`${baseUrl}/healthz`);
      if (response.ok) return response.json();
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new BenchFailure(`frontdesk serve did not become healthy within ${timeoutMs / 1000}s`);
}

export async function runAdmin(root, env, args) {
  try {
    const { stdout } = await run(process.execPath, [join(root, "bin", "frontdesk"), "admin", ...args], { cwd: root, env });
    return JSON.parse(stdout);
  } catch (error) {
    throw new BenchFailure(`frontdesk admin ${args.join(" ")} failed: ${error.stderr ?? error.message}`);
  }
}

export async function createBenchDatabase(adminUrl) {
  const name = `frontdesk_bench_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * `node [nodeOptions] [--cpu-prof] bin/frontdesk serve --port <free>` under `root` with exactly `env`; resolves
 * once GET /healthz answers 200 (with its body as `health`). `output()` is the tail of what the
 * service wrote (its pino log goes to stdout), `logLines()` how many lines it wrote in all.
 */
export async function startService({ root, env, cpuProfileDir, port: chosenPort, healthTimeoutMs = 120_000, nodeOptions = [] }) {
  const port = chosenPort ?? (await freePort());
  const nodeArguments = [...nodeOptions, ...(cpuProfileDir ? ["--cpu-prof", "--cpu-prof-dir", cpuProfileDir] : [])];
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
  // Last resort: however the bench ends, the service does not outlive it.
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  const baseUrl = `http://127.0.0.1:${port}`;
  let health;
  try {
    health = await waitForHealth(baseUrl, child, healthTimeoutMs);
  } catch (error) {
    child.kill("SIGKILL");
    throw new BenchFailure(`${error.message}\n${output}`);
  }
  return {
    pid: child.pid,
    baseUrl,
    health,
    output: () => output,
    logLines: () => logLines,
    /** SIGTERM (a graceful stop, which also writes a --cpu-prof profile), SIGKILL after 30 s. */
    async stop() {
      process.off("exit", killOnExit);
      if (child.exitCode === null) child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
      const outcome = await exited;
      clearTimeout(timer);
      return outcome;
    },
  };
}

/** The Sources API as the benchmarks use it: push (a new source, so 201) and get. */
export function sourcesClient(baseUrl, token) {
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const url = `${baseUrl}/api/v1/workspace/sources`;
  return {
    async push(body) {
      const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
      const json = await response.json();
      if (response.status !== 201) throw new BenchFailure(`POST sources answered ${response.status}: ${JSON.stringify(json)}`);
      return json.data;
    },
    async get(id) {
      const response = await fetch(`${url}/${id}`, { headers: { authorization: headers.authorization } });
      const json = await response.json();
      if (!response.ok) throw new BenchFailure(`GET sources/${id} answered ${response.status}: ${JSON.stringify(json)}`);
      return json.data;
    },
  };
}

/**
 * Runs `work(query)` on a store after a run: the Postgres database at `url`, or else the PGlite data
 * directory `dataDir` once `serve` has stopped (PGlite is single-process). `query(sql)` → rows.
 */
export async function withStore({ url, dataDir }, work) {
  if (url) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return await work(async (sql) => (await client.query(sql)).rows);
    } finally {
      await client.end();
    }
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { vector } = await import("@electric-sql/pglite-pgvector");
  const db = await PGlite.create(join(dataDir, "pglite"), { extensions: { vector } });
  try {
    return await work(async (sql) => (await db.query(sql)).rows);
  } finally {
    await db.close();
  }
}

const CLOCK_TICKS_PER_SECOND = 100;

/** User + system CPU seconds a process has used so far (all its threads), from /proc/<pid>/stat. */
export function processCpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

/** Busy and total CPU ticks of the whole machine (all cores), from /proc/stat (guest time is already in user). */
export function machineCpuTicks() {
  const [, ...fields] = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields.map(Number);
  const busy = user + nice + system + irq + softirq + steal;
  return { busy, total: busy + idle + iowait };
}

/** CPU seconds used so far by each Postgres backend serving `databaseName` (this machine's /proc), by pid. */
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

/** CPU seconds the backends used between two readings (backends that started meanwhile count in full). */
export function backendCpuBetween(before, after) {
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
  return total;
}

/** VmRSS, VmHWM (peak RSS), RssAnon, RssFile and the thread count of a process, from /proc/<pid>/status (MiB). */
export function readProcessStatus(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? NaN);
  return {
    rssMiB: field("VmRSS") / 1024,
    peakMiB: field("VmHWM") / 1024,
    anonMiB: field("RssAnon") / 1024,
    fileMiB: field("RssFile") / 1024,
    threads: field("Threads"),
  };
}

/** Samples VmRSS every `intervalMs`; `peakMiB` is the highest sample since the last `reset`. */
export function sampleMemory(pid, intervalMs = 100) {
  let peakMiB = 0;
  const timer = setInterval(() => {
    try {
      peakMiB = Math.max(peakMiB, readProcessStatus(pid).rssMiB);
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
      peakMiB = readProcessStatus(pid).rssMiB;
    },
    stop: () => clearInterval(timer),
  };
}
