#!/usr/bin/env node
// Topology benchmark: `node bench/topology.mjs` (see docs/benchmarks.md, section "Topology").
//
// Throughput through HAProxy with 1, 2 and 3 `serve` processes (API and WebSockets, no workers)
// and BENCH_WORKERS `worker` processes, on one Postgres database and one Redis: every process is a
// real bin/frontdesk from the built dist, HAProxy runs the configuration of docs/scaling.md
// (scripts/topology/haproxy-config.mjs). One agent gets BENCH_ARTICLES short support articles
// through the Sources API (indexed by the workers, hashing embedder). For each node count,
// BENCH_VISITORS visitors (each its own keep-alive connection and a Pusher WebSocket on its
// conversation's channel, both through the balancer) ask questions back to back through
// POST /messages, answered by the extractive answerer, while BENCH_OPERATORS console sockets listen
// on the workspace's channel; after BENCH_WARMUP_SECONDS, BENCH_DURATION_SECONDS are measured.
// Prints one table with a column per node count: answers/s and their p50/p99, realtime deliveries/s
// (message.created frames received by every socket), how the balancer spread the requests, where
// the CPU went (serve, Postgres, HAProxy, this client) and the machine's load; writes
// bench/results/topology-<date>.json.
//
// Environment (all optional):
//   BENCH_NODES=1,2,3   BENCH_WORKERS=2   BENCH_VISITORS=32   BENCH_OPERATORS=4   BENCH_ARTICLES=120
//   BENCH_DURATION_SECONDS=20   BENCH_WARMUP_SECONDS=5   BENCH_POOL_SIZE=10 (per process)
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres (an admin connection, for CREATE DATABASE)
//   BENCH_REDIS_URL=redis://127.0.0.1:6379   BENCH_HAPROXY_PATH=/usr/sbin/haproxy
import { createHmac, randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { backendCpuBetween, BenchFailure, freePort, machineCpuTicks, postgresBackendCpuSeconds, processCpuSeconds, readProcessStatus, runAdmin, sleep, sourcesClient } from "./bench-service.mjs";
import { createTopologyDatabase, startBalancer, startServe, startWorker } from "./topology-cluster.mjs";
import { articles, questions } from "./topology-corpus.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const number = (name, fallback) => Number(process.env[name] ?? fallback);
const settings = {
  nodes: (process.env.BENCH_NODES ?? "1,2,3").split(",").map(Number),
  workers: number("BENCH_WORKERS", 2),
  visitors: number("BENCH_VISITORS", 32),
  operators: number("BENCH_OPERATORS", 4),
  articles: number("BENCH_ARTICLES", 120),
  durationMs: number("BENCH_DURATION_SECONDS", 20) * 1000,
  warmupMs: number("BENCH_WARMUP_SECONDS", 5) * 1000,
  poolSize: number("BENCH_POOL_SIZE", 10),
};
const ORIGIN = "https://bench.test";
const APP_SECRET = randomBytes(24).toString("hex");
const adminDataDir = mkdtempSync(join(tmpdir(), "topology-bench-admin-"));

/** Nearest-rank percentile (null for none). */
function percentile(values, p) {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  return sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
const log = (text) => process.stderr.write(`topology: ${text}\n`);

/** One JSON POST on the visitor's own connection; resolves with status, body, time and the node that answered. */
function post(url, { headers = {}, body, agent }) {
  return new Promise((resolve, reject) => {
    const payload = Buffer.from(JSON.stringify(body));
    const sentAt = performance.now();
    const request = httpRequest(url, { method: "POST", agent, headers: { "content-type": "application/json", "content-length": payload.length, origin: ORIGIN, ...headers } });
    request.on("error", reject);
    request.on("response", (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (piece) => (text += piece));
      response.on("end", () => resolve({ status: response.statusCode, text, ms: performance.now() - sentAt, node: response.headers["x-frontdesk-node"] ?? "?" }));
    });
    request.end(payload);
  });
}

/** A Pusher WebSocket through the balancer, subscribed to `channel` (authorised by `authorize(socketId)`), counting message.created frames. */
function listen(baseUrl, channel, authorize, counter) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, "ws")}/app/frontdesk?protocol=7&client=js&version=8.4.0&flash=false`, { perMessageDeflate: false });
    socket.on("error", reject);
    socket.on("message", async (raw) => {
      const frame = JSON.parse(raw.toString());
      if (frame.event === "message.created") counter.received += 1;
      else if (frame.event === "pusher:ping") socket.send(JSON.stringify({ event: "pusher:pong", data: {} }));
      else if (frame.event === "pusher_internal:subscription_succeeded") resolve(socket);
      else if (frame.event === "pusher:connection_established") {
        const { socket_id: socketId } = JSON.parse(frame.data);
        try {
          socket.send(JSON.stringify({ event: "pusher:subscribe", data: { channel, auth: await authorize(socketId) } }));
        } catch (error) {
          reject(error);
        }
      } else if (frame.event === "pusher:error" || frame.event === "pusher:subscription_error") reject(new BenchFailure(`${channel}: ${raw}`));
    });
  });
}

/** A visitor: a session, its own keep-alive connection, its conversation's channel. */
async function startVisitor(baseUrl, agentId, counter) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const init = await post(`${baseUrl}/api/v1/widget/init`, { body: { agent_id: agentId, page_url: `${ORIGIN}/` }, agent });
  if (init.status !== 200) throw new BenchFailure(`init answered ${init.status}: ${init.text.slice(0, 300)}`);
  const { jwt, conversation_id: conversationId } = JSON.parse(init.text).data;
  const socket = await listen(baseUrl, `private-conversation.${conversationId}`, async (socketId) => {
    const auth = await post(`${baseUrl}/api/v1/widget/broadcasting/auth`, { headers: { authorization: `Bearer ${jwt}` }, body: { socket_id: socketId, channel_name: `private-conversation.${conversationId}` }, agent });
    if (auth.status !== 200) throw new BenchFailure(`broadcasting/auth answered ${auth.status}: ${auth.text}`);
    return JSON.parse(auth.text).auth;
  }, counter);
  return { jwt, agent, socket };
}

/** A console's socket on the workspace's channel, signed with the app secret as the console's auth route would. */
const operatorSocket = (baseUrl, workspaceId, counter) =>
  listen(baseUrl, `private-workspace.${workspaceId}`, async (socketId) => `frontdesk:${createHmac("sha256", APP_SECRET).update(`${socketId}:private-workspace.${workspaceId}`).digest("hex")}`, counter);

/** CPU seconds so far of the processes that serve the bench, by role. */
function cpuNow(cluster, databaseName) {
  const of = (processes) => processes.reduce((sum, child) => sum + processCpuSeconds(child.pid), 0);
  return { serve: of(cluster.serves), worker: of(cluster.workers), haproxy: cluster.balancer ? processCpuSeconds(cluster.balancer.pid) : 0, postgres: postgresBackendCpuSeconds(databaseName), client: process.cpuUsage(), machine: machineCpuTicks() };
}

function cpuBetween(before, after, wallSeconds) {
  const client = (after.client.user + after.client.system - before.client.user - before.client.system) / 1e6;
  const busy = (after.machine.busy - before.machine.busy) / (after.machine.total - before.machine.total);
  const round = (value) => Math.round(value * 100) / 100;
  return {
    machineBusyPercent: Math.round(busy * 1000) / 10,
    coresUsed: { serve: round((after.serve - before.serve) / wallSeconds), postgres: round(backendCpuBetween(before.postgres, after.postgres) / wallSeconds), haproxy: round((after.haproxy - before.haproxy) / wallSeconds), worker: round((after.worker - before.worker) / wallSeconds), client: round(client / wallSeconds) },
  };
}

async function runPhase(cluster, nodes, database, seeded) {
  const serves = cluster.serves.slice(0, nodes);
  cluster.balancer = await startBalancer({ haproxyPath: process.env.BENCH_HAPROXY_PATH || "/usr/sbin/haproxy", port: cluster.port, serves });
  const counter = { received: 0 };
  const visitors = [];
  for (let start = 0; start < settings.visitors; start += 8) {
    visitors.push(...(await Promise.all(Array.from({ length: Math.min(8, settings.visitors - start) }, () => startVisitor(cluster.url, seeded.agentId, counter)))));
  }
  const operators = await Promise.all(Array.from({ length: settings.operators }, () => operatorSocket(cluster.url, seeded.workspaceId, counter)));
  const ask = questions(nodes);
  const results = [];
  let measuring = false;
  const startedAt = performance.now();
  const measureFrom = startedAt + settings.warmupMs;
  const deadline = measureFrom + settings.durationMs;
  let before = null;
  let receivedBefore = 0;
  const loadBefore = loadavg()[0];
  setTimeout(() => {
    measuring = true;
    before = cpuNow(cluster, database.name);
    receivedBefore = counter.received;
  }, settings.warmupMs);
  await Promise.all(
    visitors.map(async (visitor) => {
      while (performance.now() < deadline) {
        const counted = measuring;
        try {
          const answer = await post(`${cluster.url}/api/v1/widget/messages`, { headers: { authorization: `Bearer ${visitor.jwt}` }, body: { message: ask() }, agent: visitor.agent });
          if (counted && performance.now() <= deadline) results.push({ ms: answer.ms, ok: answer.status === 200, node: answer.node });
        } catch (error) {
          if (counted) results.push({ ms: null, ok: false, node: "?", error: error.message });
        }
      }
    }),
  );
  const wallSeconds = (performance.now() - measureFrom) / 1000;
  const after = cpuNow(cluster, database.name);
  const received = counter.received - receivedBefore;
  for (const socket of [...visitors.map((visitor) => visitor.socket), ...operators]) socket.terminate();
  await cluster.balancer.stop();
  cluster.balancer = null;
  const ok = results.filter((result) => result.ok);
  const spread = Object.fromEntries(serves.map((serve) => [serve.name, results.filter((result) => result.node === serve.name).length]));
  return {
    nodes,
    answers: ok.length,
    errors: results.length - ok.length,
    answersPerSecond: Math.round((ok.length / wallSeconds) * 10) / 10,
    p50Ms: Math.round(percentile(ok.map((result) => result.ms), 50)),
    p99Ms: Math.round(percentile(ok.map((result) => result.ms), 99)),
    deliveriesPerSecond: Math.round(received / wallSeconds),
    spread,
    cpu: cpuBetween(before, after, wallSeconds),
    serveRssMiB: serves.map((serve) => Math.round(readProcessStatus(serve.pid).rssMiB)),
    load: { before: loadBefore, after: loadavg()[0] },
  };
}

function table(phases) {
  const row = (label, cell) => `| ${label} | ${phases.map(cell).join(" | ")} |`;
  const cores = (phase) => phase.cpu.coresUsed;
  return [
    `| serve processes (${settings.workers} workers) | ${phases.map((phase) => phase.nodes).join(" | ")} |`,
    `|---|${phases.map(() => "---").join("|")}|`,
    row("answers/s (extractive, POST /messages)", (phase) => phase.answersPerSecond),
    row("answer p50 / p99 (ms)", (phase) => `${phase.p50Ms} / ${phase.p99Ms}`),
    row("realtime deliveries/s (message.created frames)", (phase) => phase.deliveriesPerSecond),
    row("requests per serve (balancer spread)", (phase) => Object.values(phase.spread).join(" / ")),
    row("errors", (phase) => phase.errors),
    row("cores used: serve / Postgres / HAProxy / client", (phase) => `${cores(phase).serve} / ${cores(phase).postgres} / ${cores(phase).haproxy} / ${cores(phase).client}`),
    row("machine CPU busy", (phase) => `${phase.cpu.machineBusyPercent} %`),
    row("serve RSS (MiB each)", (phase) => phase.serveRssMiB.join(" / ")),
    row("load average (1 min), before → after", (phase) => `${phase.load.before.toFixed(1)} → ${phase.load.after.toFixed(1)}`),
  ].join("\n");
}

async function main() {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const database = await createTopologyDatabase(adminUrl);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = {
    PATH: process.env.PATH ?? "",
    FRONTDESK_DATABASE_URL: database.url,
    FRONTDESK_DATABASE_POOL_SIZE: String(settings.poolSize),
    FRONTDESK_REDIS_URL: process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379",
    FRONTDESK_REDIS_PREFIX: `topology-bench-${randomBytes(4).toString("hex")}:`,
    FRONTDESK_REALTIME_APP_SECRET: APP_SECRET,
    FRONTDESK_JWT_SECRET: randomBytes(24).toString("hex"),
    FRONTDESK_PUBLIC_URL: url,
    FRONTDESK_TRUSTED_PROXIES: "127.0.0.1",
    FRONTDESK_EMBEDDINGS_PROVIDER: "hashing",
    FRONTDESK_LOG_LEVEL: "warn",
    FRONTDESK_RATE_LIMIT_PROFILE: "high",
    FRONTDESK_RATE_LIMIT_INIT_PER_MINUTE: "1000000",
    FRONTDESK_RATE_LIMIT_INIT_PER_HOUR_PER_IP: "0",
    FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "1000000",
    FRONTDESK_RATE_LIMIT_SOURCES_PER_MINUTE: "1000000",
    FRONTDESK_REALTIME_MAX_CONNECTIONS_PER_IP: "100000",
  };
  const cluster = { port, url, serves: [], workers: [], balancer: null };
  const started = performance.now();
  try {
    const maxNodes = Math.max(...settings.nodes);
    // Migrated once, then every process starts at once (idle serve processes cost memory, not CPU).
    await runAdmin(root, { ...env, FRONTDESK_DATA_DIR: adminDataDir }, ["workspace", "list"]);
    [cluster.serves, cluster.workers] = await Promise.all([
      Promise.all(Array.from({ length: maxNodes }, (_, index) => startServe(root, env, `serve${index + 1}`))),
      Promise.all(Array.from({ length: settings.workers }, () => startWorker(root, env))),
    ]);
    log(`${maxNodes} serve and ${settings.workers} worker processes up in ${Math.round((performance.now() - started) / 1000)} s`);
    const seeded = await seed(cluster.serves[0], env);
    const phases = [];
    for (const nodes of settings.nodes) {
      log(`${nodes} serve process(es): ${settings.visitors} visitors, ${settings.operators} operator sockets, ${settings.warmupMs / 1000} s warm-up, ${settings.durationMs / 1000} s measured`);
      phases.push(await runPhase(cluster, nodes, database, seeded));
      log(JSON.stringify(phases.at(-1)));
    }
    const when = new Date().toISOString();
    console.log(`\nTopology through HAProxy, ${when.slice(0, 16).replace("T", " ")} UTC, ${settings.visitors} visitors, ${settings.operators} operator sockets, ${settings.articles} articles, ${settings.durationMs / 1000} s each\n`);
    console.log(table(phases));
    const file = join(root, "bench", "results", `topology-${when.slice(0, 19).replace(/[:T]/g, "-")}.json`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify({ when, settings, seeded, phases }, null, 2)}\n`);
    log(`wrote ${file}`);
  } finally {
    await cluster.balancer?.stop();
    await Promise.all([...cluster.serves, ...cluster.workers].map((child) => child.stop()));
    await database.drop();
    rmSync(adminDataDir, { recursive: true, force: true });
  }
}

/** The workspace, agent and articles (through the Sources API of one serve), waited for until the workers indexed them. */
async function seed(serve, env) {
  const adminEnv = { ...env, FRONTDESK_DATA_DIR: adminDataDir };
  const workspace = await runAdmin(root, adminEnv, ["workspace", "create", "--name", "Topology"]);
  const agent = await runAdmin(root, adminEnv, ["agent", "create", "--workspace", workspace.id, "--name", "Bench", "--origin", ORIGIN]);
  const token = await runAdmin(root, adminEnv, ["token", "create", "--workspace", workspace.id, "--name", "bench"]);
  const client = sourcesClient(serve.url, token.token);
  const started = performance.now();
  const ids = [];
  for (const article of articles(settings.articles)) ids.push((await client.push({ agent_id: agent.id, kind: "text", ...article })).id);
  for (let pending = ids; pending.length > 0; ) {
    if (performance.now() - started > 600_000) throw new BenchFailure(`${pending.length} sources still pending after 10 min`);
    await sleep(2000);
    const states = await Promise.all(pending.map((id) => client.get(id)));
    const failed = states.find((source) => source.status === "failed");
    if (failed) throw new BenchFailure(`a source failed: ${JSON.stringify(failed)}`);
    pending = pending.filter((_, index) => states[index].status === "pending");
  }
  log(`${ids.length} articles indexed by the workers in ${Math.round((performance.now() - started) / 1000)} s`);
  return { workspaceId: workspace.id, agentId: agent.id };
}

main().catch((error) => {
  console.error(error instanceof BenchFailure ? `topology: ${error.message}` : error);
  process.exit(1);
});
