#!/usr/bin/env node
// Realtime benchmark: `npm run bench:realtime` (see docs/benchmarks.md, section "Realtime").
//
// Starts `frontdesk serve` (embedded PGlite in a temp data dir, hashing embeddings, a known
// FRONTDESK_REALTIME_APP_SECRET, FRONTDESK_REALTIME_MAX_CONNECTIONS and _PER_IP raised) and forks the load
// client (bench/realtime-client.mjs) into its own process: raw `ws` sockets speaking the Pusher
// protocol, each subscribed to a public channel. This process publishes through the Pusher HTTP API
// (POST /apps/{app_id}/events, signed by the `pusher` library) with the publish time in the data;
// the client times each receipt. Measures, in order:
//   1. the server's RSS (VmRSS) with 0 connections, then with BENCH_IDLE (10,000) idle connections
//      each subscribed to its own channel, and the KB per connection (target < 60 KB). The idle
//      connections stay open for the rest of the run;
//   2. latency publish → receipt, p50/p99 (target p99 < 50 ms): (a) one event to 1,000 subscribers
//      of one channel, BENCH_FANOUT_EVENTS (50) times, one every 100 ms; (b) 1,000 events to 1,000
//      channels of one subscriber each, BENCH_PUBLISH_CONCURRENCY (10) requests in flight;
//   3. events delivered per second: BENCH_BURST_EVENTS (200) events to the 1,000-subscriber channel,
//      and 10 × 1,000 events over the 1,000 channels, published as fast as the HTTP API takes them.
// Prints a Markdown table and writes bench/results/realtime-<date>.json.
//
// Environment (all optional): BENCH_IDLE=10000  BENCH_SUBSCRIBERS=1000  BENCH_FANOUT_EVENTS=50
//   BENCH_BURST_EVENTS=200  BENCH_PUBLISH_CONCURRENCY=10  BENCH_SETTLE_SECONDS=5
//   BENCH_CPU_PROF=1 (profile the server: bench/results/profiles/)  BENCH_ENFORCE_TARGETS=1 (exit 1 on a miss)
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { Agent } from "node:http";
import { cpus, tmpdir, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import Pusher from "pusher";
import { BenchFailure, processCpuSeconds, readProcessStatus, sleep, startService } from "./bench-service.mjs";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const resultsDir = join(root, "bench", "results");
const settings = {
  idle: Number(process.env.BENCH_IDLE ?? 10_000),
  subscribers: Number(process.env.BENCH_SUBSCRIBERS ?? 1000),
  fanoutEvents: Number(process.env.BENCH_FANOUT_EVENTS ?? 50),
  burstEvents: Number(process.env.BENCH_BURST_EVENTS ?? 200),
  publishConcurrency: Number(process.env.BENCH_PUBLISH_CONCURRENCY ?? 10),
  settleSeconds: Number(process.env.BENCH_SETTLE_SECONDS ?? 5),
  cpuProfile: process.env.BENCH_CPU_PROF === "1",
  enforceTargets: process.env.BENCH_ENFORCE_TARGETS === "1",
};
const TARGETS = { kbPerConnection: 60, p99Ms: 50 };
const APP = { appId: "bench", key: "bench-key", secret: randomBytes(24).toString("hex") };
const now = () => performance.timeOrigin + performance.now();
const log = (message) => process.stderr.write(`[bench:realtime] ${message}\n`);

/** Open files (sockets) this process may hold (soft limit; `hard` is how far it may be raised); children inherit it. */
function openFileLimit(hard = false) {
  const match = /^Max open files\s+(\d+|unlimited)\s+(\d+|unlimited)/m.exec(readFileSync("/proc/self/limits", "utf8"));
  const value = match?.[hard ? 2 : 1] ?? "0";
  return value === "unlimited" ? Number.POSITIVE_INFINITY : Number(value);
}

/**
 * Re-runs this script under `prlimit` when the open-file limit is too low for the sockets it opens.
 * Node raises its soft limit to the hard one at startup, so in practice this is a hard limit below
 * what the run needs, and raising it needs CAP_SYS_RESOURCE (else prlimit says so and the run stops).
 */
function ensureOpenFileLimit() {
  const needed = settings.idle + 2 * settings.subscribers + 1024;
  if (openFileLimit() >= needed) return;
  if (process.env.BENCH_REEXECUTED === "1") throw new BenchFailure(`open-file limit ${openFileLimit()} < ${needed} even under prlimit`);
  const hard = openFileLimit(true);
  const limit = hard >= needed ? (Number.isFinite(hard) ? hard : Math.max(65_536, needed)) : Math.max(65_536, needed);
  log(`open-file limit ${openFileLimit()} < ${needed}: re-running under prlimit --nofile=${limit}`);
  const result = spawnSync("prlimit", [`--nofile=${limit}:${limit}`, "--", process.execPath, ...process.argv.slice(1)], {
    stdio: "inherit",
    env: { ...process.env, BENCH_REEXECUTED: "1" },
  });
  process.exit(result.status ?? 1);
}

/** The forked load client, driven over IPC: `call(cmd, args)` → its answer. */
function startClient() {
  const child = spawn(process.execPath, [join(root, "bench", "realtime-client.mjs")], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const pending = new Map();
  let nextId = 0;
  const unexpectedCloses = [];
  child.on("message", (message) => {
    if (message.event === "unexpected-close") return void unexpectedCloses.push(message.code);
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    if (message.error) waiter?.reject(new BenchFailure(`load client: ${message.error}`));
    else waiter?.resolve(message);
  });
  child.once("exit", (code) => {
    for (const waiter of pending.values()) waiter.reject(new BenchFailure(`load client exited with ${code}`));
  });
  return {
    pid: child.pid,
    unexpectedCloses,
    call(cmd, args) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        child.send({ id, cmd, ...args });
      });
    },
    stop: () => child.connected && child.disconnect(),
  };
}

/** Publishes `count` events, `concurrency` in flight, each to channelOf(i), pacing them `intervalMs` apart if given. */
async function publish(pusher, { count, channelOf, concurrency, intervalMs = 0 }) {
  let next = 0;
  const failures = [];
  const started = now();
  const worker = async () => {
    while (next < count) {
      const i = next++;
      if (intervalMs > 0) {
        const wait = started + i * intervalMs - now();
        if (wait > 0) await sleep(wait);
      }
      try {
        await pusher.trigger(channelOf(i), "bench", { t: now(), i });
      } catch (error) {
        failures.push(error.status ? `${error.status} ${error.body}` : error.message);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  if (failures.length > 0) throw new BenchFailure(`${failures.length} publishes failed, e.g. ${failures[0]}`);
  return started;
}

/** Server RSS (MiB) after the settle time: the median of 5 readings, 400 ms apart. */
async function settledRss(pid) {
  await sleep(settings.settleSeconds * 1000);
  const readings = [];
  for (let i = 0; i < 5; i += 1) {
    readings.push(readProcessStatus(pid).rssMiB);
    await sleep(400);
  }
  return readings.sort((a, b) => a - b)[2];
}

/** Runs a latency or throughput phase: the client expects `deliveries`, this process publishes. */
async function deliveryPhase({ name, server, client, pusher, deliveries, publishing }) {
  const cpuBefore = { server: processCpuSeconds(server.pid), client: processCpuSeconds(client.pid) };
  const received = client.call("expect", { total: deliveries, timeoutMs: 120_000 });
  await sleep(50);
  const started = await publish(pusher, publishing);
  const published = now();
  const outcome = await received;
  const seconds = (outcome.lastAt - started) / 1000;
  const result = {
    name,
    events: publishing.count,
    deliveries: outcome.received,
    expected: deliveries,
    latencyMs: { p50: outcome.p50, p90: outcome.p90, p99: outcome.p99, max: outcome.max, min: outcome.min },
    publishSeconds: Math.round(published - started) / 1000,
    deliveredPerSecond: Math.round(outcome.received / seconds),
    cpuSeconds: {
      server: Math.round((processCpuSeconds(server.pid) - cpuBefore.server) * 100) / 100,
      client: Math.round((processCpuSeconds(client.pid) - cpuBefore.client) * 100) / 100,
    },
  };
  log(`${name}: ${JSON.stringify(result)}`);
  if (outcome.received < deliveries) throw new BenchFailure(`${name}: ${outcome.received} of ${deliveries} deliveries arrived`);
  return result;
}

function printTable({ memory, phases }) {
  const yes = (met) => (met ? "yes" : "**NO**");
  const fmt = (value) => value.toLocaleString("en", { maximumFractionDigits: 1 });
  const rows = [
    ["server RSS, 0 connections", `${fmt(memory.rssIdle0MiB)} MiB`, "", ""],
    [`server RSS, ${fmt(settings.idle)} idle connections (1 channel each)`, `${fmt(memory.rssIdleMiB)} MiB`, "", ""],
    ["memory per connection", `${fmt(memory.kbPerConnection)} KB`, `< ${TARGETS.kbPerConnection} KB`, yes(memory.kbPerConnection < TARGETS.kbPerConnection)],
    ...phases.flatMap((phase) => [
      ...(phase.kind === "latency"
        ? [[`${phase.label}: p50 / p99 (max)`, `${phase.latencyMs.p50.toFixed(2)} / ${phase.latencyMs.p99.toFixed(2)} ms (${phase.latencyMs.max.toFixed(1)})`, `p99 < ${TARGETS.p99Ms} ms`, yes(phase.latencyMs.p99 < TARGETS.p99Ms)]]
        : [[`${phase.label}: delivered/s`, fmt(phase.deliveredPerSecond), "", ""]]),
    ]),
  ];
  const lines = ["| measure | figure | target | met |", "|---|---|---|---|", ...rows.map((row) => `| ${row.join(" | ")} |`)];
  process.stdout.write(`\n${lines.join("\n")}\n\n`);
}

async function main() {
  ensureOpenFileLimit();
  const startedAt = new Date();
  const dataDir = await mkdtemp(join(tmpdir(), "frontdesk-bench-realtime-"));
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("FRONTDESK_")));
  const env = {
    ...inherited,
    FRONTDESK_DATA_DIR: dataDir,
    FRONTDESK_LOG_LEVEL: "warn",
    FRONTDESK_EMBEDDINGS_PROVIDER: "hashing",
    FRONTDESK_REALTIME_APP_ID: APP.appId,
    FRONTDESK_REALTIME_APP_KEY: APP.key,
    FRONTDESK_REALTIME_APP_SECRET: APP.secret,
    FRONTDESK_REALTIME_MAX_CONNECTIONS: String(settings.idle + 2 * settings.subscribers + 1000),
    // Every load client connects from loopback: one address.
    FRONTDESK_REALTIME_MAX_CONNECTIONS_PER_IP: String(settings.idle + 2 * settings.subscribers + 1000),
  };
  const profileDir = settings.cpuProfile ? join(resultsDir, "profiles") : undefined;
  if (profileDir) await mkdir(profileDir, { recursive: true });
  const server = await startService({ root, env, cpuProfileDir: profileDir });
  const client = startClient();
  const agent = new Agent({ keepAlive: true, maxSockets: settings.publishConcurrency });
  try {
    const { port } = new URL(server.baseUrl);
    const url = `ws://127.0.0.1:${port}/app/${APP.key}?protocol=7&client=bench&version=1`;
    const pusher = new Pusher({ ...APP, host: "127.0.0.1", port, useTLS: false, agent });
    log(`server ${server.baseUrl} (pid ${server.pid}), client pid ${client.pid}, open-file limit ${openFileLimit()}`);

    const rssIdle0MiB = await settledRss(server.pid);
    const opening = await client.call("open", { group: "idle", url, count: settings.idle, channel: "bench-idle-{n}", concurrency: 100 });
    log(`${opening.opened} idle connections subscribed in ${opening.ms} ms`);
    const rssIdleMiB = await settledRss(server.pid);
    const memory = {
      rssIdle0MiB,
      rssIdleMiB,
      connections: opening.opened,
      openMs: opening.ms,
      kbPerConnection: Math.round((((rssIdleMiB - rssIdle0MiB) * 1024) / opening.opened) * 10) / 10,
    };
    log(`memory: ${JSON.stringify(memory)}`);

    const n = settings.subscribers;
    await client.call("open", { group: "fanout", url, count: n, channel: "bench-fanout", concurrency: 100 });
    await client.call("open", { group: "channels", url, count: n, channel: "bench-channel-{n}", concurrency: 100 });
    const common = { server, client, pusher };
    const phases = [];
    const fanout = await deliveryPhase({
      ...common,
      name: "fanout-latency",
      deliveries: settings.fanoutEvents * n,
      publishing: { count: settings.fanoutEvents, channelOf: () => "bench-fanout", concurrency: 1, intervalMs: 100 },
    });
    phases.push({ ...fanout, kind: "latency", label: `1 event → ${n} subscribers of one channel (×${settings.fanoutEvents}, 100 ms apart)` });
    const channels = await deliveryPhase({
      ...common,
      name: "channels-latency",
      deliveries: n,
      publishing: { count: n, channelOf: (i) => `bench-channel-${i}`, concurrency: settings.publishConcurrency },
    });
    phases.push({ ...channels, kind: "latency", label: `${n} events → ${n} channels of 1 subscriber (${settings.publishConcurrency} in flight)` });
    const fanoutBurst = await deliveryPhase({
      ...common,
      name: "fanout-burst",
      deliveries: settings.burstEvents * n,
      publishing: { count: settings.burstEvents, channelOf: () => "bench-fanout", concurrency: settings.publishConcurrency },
    });
    phases.push({ ...fanoutBurst, kind: "throughput", label: `burst: ${settings.burstEvents} events → ${n} subscribers of one channel` });
    const channelsBurst = await deliveryPhase({
      ...common,
      name: "channels-burst",
      deliveries: 10 * n,
      publishing: { count: 10 * n, channelOf: (i) => `bench-channel-${i % n}`, concurrency: settings.publishConcurrency },
    });
    phases.push({ ...channelsBurst, kind: "throughput", label: `burst: ${10 * n} events → ${n} channels of 1 subscriber` });

    const unexpectedCloses = client.unexpectedCloses.length;
    printTable({ memory, phases });
    if (unexpectedCloses > 0) log(`${unexpectedCloses} sockets were closed by the server during the run (codes ${[...new Set(client.unexpectedCloses)].join(", ")})`);
    const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version };
    const report = { startedAt: startedAt.toISOString(), command: "npm run bench:realtime", settings, targets: TARGETS, machine, memory, phases, unexpectedCloses };
    await mkdir(resultsDir, { recursive: true });
    const resultsFile = join(resultsDir, `realtime-${startedAt.toISOString().replace(/:/g, "").replace(/\.\d+Z$/, "Z")}.json`);
    await writeFile(resultsFile, `${JSON.stringify(report, null, 2)}\n`);
    process.stdout.write(`  results: ${resultsFile}\n`);
    const missed = memory.kbPerConnection >= TARGETS.kbPerConnection || phases.some((phase) => phase.kind === "latency" && phase.latencyMs.p99 >= TARGETS.p99Ms);
    if (missed && settings.enforceTargets) process.exitCode = 1;
  } finally {
    agent.destroy();
    client.stop();
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  log(error instanceof BenchFailure ? error.message : error.stack);
  process.exit(1);
});
