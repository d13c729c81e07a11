#!/usr/bin/env node
// Widget API load benchmark: `npm run bench:widget` (see docs/benchmarks.md).
//
// Starts `frontdesk serve` on a fresh Postgres database and Redis, with the rate limits raised out
// of the way, seeds a workspace and an agent through the admin CLI, then drives GET /livez (the
// ceiling), POST init, leads and events one after another with wrk (a separate process, script
// bench/widget-load.lua) and prints requests/s and p50/p99 latency per route, with the CPU the
// server and everything else used. Results also go to bench/results/widget-<date>.json.
//
// Environment (all optional):
//   BENCH_DURATION=30s        measured run per route      BENCH_CONNECTIONS=64   connections per route
//   BENCH_WARMUP=5s           unmeasured run first        BENCH_THREADS=1        wrk threads
//   BENCH_SESSIONS=64         sessions for leads/events   BENCH_POOL_SIZE=20     server Postgres pool
//   BENCH_ROUTES=livez,init,leads,events                  BENCH_CPU_PROF=1       --cpu-prof the server
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres   (creates and drops a database)
//   BENCH_REDIS_URL=redis://127.0.0.1:6379
//   BENCH_QUIET_TIMEOUT=300   seconds to wait, before each route, for other processes to leave the CPUs
//   BENCH_ATTEMPTS=3          a run in which other processes used CPU is repeated, up to this many times
//   BENCH_ENFORCE_TARGETS=1   exit 1 when a target is missed (an error rate above 1% always does)
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { cpuBetween, othersCpuOver, processClassifier, snapshotCpu } from "./widget-cpu.mjs";
import * as service from "./widget-service.mjs";
import { BenchFailure, log, ORIGIN } from "./widget-service.mjs";
import { runWrk, summarize, wrkVersion } from "./widget-wrk.mjs";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const resultsDir = join(root, "bench", "results");

const settings = {
  duration: process.env.BENCH_DURATION ?? "30s",
  connections: Number(process.env.BENCH_CONNECTIONS ?? 64),
  warmup: process.env.BENCH_WARMUP ?? "5s",
  threads: Number(process.env.BENCH_THREADS ?? 1),
  sessions: Number(process.env.BENCH_SESSIONS ?? 64),
  poolSize: Number(process.env.BENCH_POOL_SIZE ?? 20),
  routes: (process.env.BENCH_ROUTES ?? "livez,init,leads,events").split(",").map((route) => route.trim()).filter(Boolean),
  cpuProfile: process.env.BENCH_CPU_PROF === "1",
  adminDatabaseUrl: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
  redisUrl: process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379",
  quietTimeoutSeconds: Number(process.env.BENCH_QUIET_TIMEOUT ?? 300),
  attempts: Math.max(1, Number(process.env.BENCH_ATTEMPTS ?? 3)),
  enforceTargets: process.env.BENCH_ENFORCE_TARGETS === "1",
};

const MAX_ERROR_RATE = 0.01;
/** Others' CPU, in % of one core, above which the machine counts as busy (a run as disturbed). */
const OTHERS_CPU_LIMIT = 10;

/** What each route is driven with, and the target it must meet (null: none, it is the reference). */
const ROUTES = {
  livez: { method: "GET", path: "/livez", target: null, note: "does nothing: the ceiling of this machine" },
  init: {
    method: "POST",
    path: "/api/v1/widget/init",
    target: { requestsPerSecond: 1000, p99Ms: 100 },
    note: "a new anon_id per request: a new visitor and a new conversation each time (the heavier path)",
  },
  leads: {
    method: "POST",
    path: "/api/v1/widget/leads",
    target: { requestsPerSecond: 2500 },
    note: "9 in 10 e-mails new (insert), 1 in 10 repeated (update), over 64 sessions",
  },
  events: { method: "POST", path: "/api/v1/widget/events", target: { requestsPerSecond: 2500 }, note: "a small JSON event, over 64 sessions" },
};

/** Waits up to the quiet timeout for other processes to leave the CPUs; their CPU at the end. */
async function waitForQuietMachine(route, classify) {
  const deadline = Date.now() + settings.quietTimeoutSeconds * 1000;
  let others = await othersCpuOver(3000, classify);
  while (others !== null && others > OTHERS_CPU_LIMIT && Date.now() < deadline) {
    log(`${route}: other processes use ${others}% of a core; waiting for the machine to calm down`);
    others = await othersCpuOver(5000, classify);
  }
  return others;
}

/** Warm-up, then the measured run, repeated while other processes disturb it (up to the attempts). */
async function measureRoute({ route, server, database, sessionFile, classify }) {
  const wrkOptions = { luaScript: join(root, "bench", "widget-load.lua"), baseUrl: server.baseUrl, route, sessionFile };
  const warmup = settings.warmup !== "0" && settings.warmup !== "0s";
  let result;
  for (let attempt = 1; attempt <= settings.attempts; attempt += 1) {
    await service.checkpoint(database.url);
    const othersBefore = await waitForQuietMachine(route, classify);
    if (warmup) await runWrk({ ...wrkOptions, duration: settings.warmup, threads: settings.threads, connections: settings.connections });
    const rowsBefore = await service.countRows(database.url);
    const cpuBefore = await snapshotCpu();
    log(`${route}: ${settings.duration} at ${settings.connections} connections (attempt ${attempt})`);
    const raw = await runWrk({ ...wrkOptions, duration: settings.duration, threads: settings.threads, connections: settings.connections });
    const cpu = cpuBetween(cpuBefore, await snapshotCpu(), classify, server.pid);
    const rowsAfter = await service.countRows(database.url);
    result = summarize(route, ROUTES[route], raw);
    result.attempt = attempt;
    result.cpu = cpu && { ...cpu, othersBeforePercentOfOneCore: othersBefore };
    result.disturbed = cpu !== null && cpu.othersPercentOfOneCore > OTHERS_CPU_LIMIT;
    result.rowsWritten = Object.fromEntries(Object.keys(rowsAfter).map((table) => [table, rowsAfter[table] - rowsBefore[table]]));
    log(
      `${route}: ${result.requestsPerSecond}/s, p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms; ` +
        `rows written ${JSON.stringify(result.rowsWritten)}; CPU ${JSON.stringify(result.cpu)}`,
    );
    if (!result.disturbed) break;
    log(`${route}: other processes used ${cpu.othersPercentOfOneCore}% of a core during the run${attempt < settings.attempts ? "; again" : ""}`);
  }
  return result;
}

function describeTarget(target) {
  if (!target) return "(ceiling)";
  return `≥ ${target.requestsPerSecond.toLocaleString("en")}/s${target.p99Ms ? `, p99 < ${target.p99Ms} ms` : ""}`;
}

function printTable(results) {
  const header = ["route", "req/s", "p50 ms", "p99 ms", "non-2xx", "socket err", "server CPU", "others CPU", "target", "met"];
  const percent = (value) => (value === null || value === undefined ? "-" : `${value}%`);
  const rows = results.map((result) => [
    `${result.method} ${result.path}`,
    result.requestsPerSecond.toLocaleString("en"),
    result.latencyMs.p50.toFixed(2),
    result.latencyMs.p99.toFixed(2),
    String(result.non2xx),
    String(Object.values(result.socketErrors).reduce((sum, count) => sum + count, 0)),
    percent(result.cpu?.serverPercentOfOneCore),
    percent(result.cpu?.othersPercentOfOneCore) + (result.disturbed ? " !" : ""),
    describeTarget(result.target),
    result.targetMet === null ? "-" : result.targetMet ? "yes" : "NO",
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const leftAligned = new Set([0, 8]);
  const format = (row) => row.map((cell, column) => (leftAligned.has(column) ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join("  ");
  process.stdout.write(`\n${format(header)}\n${widths.map((width) => "-".repeat(width)).join("  ")}\n${rows.map(format).join("\n")}\n\n`);
  for (const result of results) process.stdout.write(`  ${result.route}: ${result.note}\n`);
  process.stdout.write(
    `\n  CPU in % of one core over the run; "others" is work on the machine outside this benchmark (! = disturbed).\n` +
      `  wrk (${settings.threads} thread${settings.threads === 1 ? "" : "s"}), the server, Postgres and Redis share the machine's CPUs.\n`,
  );
}

async function main() {
  for (const route of settings.routes) if (!ROUTES[route]) throw new BenchFailure(`unknown route in BENCH_ROUTES: ${route}`);
  await service.ensureBuilt(root);
  const wrk = await wrkVersion();
  const startedAt = new Date();
  const cleanups = service.cleanUpRegistry();

  try {
    const { dataDir, database } = await service.freshStore(settings.adminDatabaseUrl, cleanups);

    const port = await service.freePort();
    const environment = service.serverEnvironment({ databaseUrl: database.url, poolSize: settings.poolSize, redisUrl: settings.redisUrl, dataDir, port });
    const profileDir = settings.cpuProfile ? join(resultsDir, "profiles") : null;
    if (profileDir) await mkdir(profileDir, { recursive: true });
    const server = await service.startServer({ root, environment, port, profileDir });
    cleanups.add(() => server.stop());
    log(`server on ${server.baseUrl}`);

    const workspace = await service.adminCli(root, environment, ["workspace", "create", "--name", "Bench"]);
    const agent = await service.adminCli(root, environment, ["agent", "create", "--workspace", workspace.id, "--name", "Bench", "--origin", ORIGIN]);
    const tokens = await service.startSessions(server.baseUrl, agent.id, settings.sessions);
    const sessionFile = join(dataDir, "sessions.txt");
    const runTag = randomBytes(3).toString("hex");
    await writeFile(sessionFile, [`agent_id ${agent.id}`, `run ${runTag}`, ...tokens.map((token) => `token ${token}`), ""].join("\n"));
    log(`agent ${agent.id}, ${tokens.length} sessions for leads and events`);

    const machine = await service.machineInfo(database.url, settings.redisUrl);
    const classify = processClassifier({ serverPid: server.pid, databaseName: database.name, port });
    const results = [];
    for (const route of settings.routes) results.push(await measureRoute({ route, server, database, sessionFile, classify }));

    printTable(results);
    await mkdir(resultsDir, { recursive: true });
    const stamp = startedAt.toISOString().replace(/:/g, "").replace(/\.\d+Z$/, "Z");
    const resultsFile = join(resultsDir, `widget-${stamp}.json`);
    const revision = await service.sourceRevision(root);
    const report = { startedAt: startedAt.toISOString(), command: "npm run bench:widget", revision, settings: { ...settings, wrk }, machine, results };
    await writeFile(resultsFile, `${JSON.stringify(report, null, 2)}\n`);
    process.stdout.write(`  results: ${resultsFile}\n`);

    const failing = results.filter((result) => result.errorRate > MAX_ERROR_RATE);
    if (failing.length > 0) {
      const list = failing.map((result) => `${result.route} (${(result.errorRate * 100).toFixed(2)}%)`).join(", ");
      throw new BenchFailure(`error rate above ${MAX_ERROR_RATE * 100}% on ${list}\nlast server output:\n${server.output()}`);
    }
    const disturbed = results.filter((result) => result.disturbed);
    if (disturbed.length > 0) {
      process.stdout.write(`  WARNING: other processes used the CPUs during ${disturbed.map((result) => result.route).join(", ")}; those figures are low\n`);
    }
    const missed = results.filter((result) => result.targetMet === false);
    if (missed.length > 0) {
      process.stdout.write(`  targets missed: ${missed.map((result) => `${result.route} (${describeTarget(result.target)})`).join(", ")}\n`);
      if (settings.enforceTargets) process.exitCode = 1;
    } else {
      process.stdout.write("  every target met\n");
    }
  } finally {
    await cleanups.cleanUp();
  }
}

main().catch((error) => {
  process.stderr.write(`\n[bench] FAILED: ${error instanceof BenchFailure ? error.message : error.stack}\n`);
  process.exitCode = 1;
});
