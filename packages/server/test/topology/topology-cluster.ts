import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { haproxyConfig } from "../../../../scripts/topology/haproxy-config.mjs";
import { haproxyStats, startHaproxy } from "../../../../scripts/topology/haproxy-process.mjs";
import { freePort, json, run, stopServer } from "../cli/cli-process.js";
import { frontdesk, type WatchedProcess } from "../cli/frontdesk-process.js";
import { killedWithTestProcess } from "../support/child-processes.js";
import { parsePrometheusText, sampleValue } from "../support/prometheus-text.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";

const redisUrl = process.env.FRONTDESK_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const haproxyPath = process.env.FRONTDESK_TEST_HAPROXY_PATH || "/usr/sbin/haproxy";

/** Stops a child (SIGTERM: gracefully) unless it has already ended, however it ended. */
async function stopChild(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await stopServer(child, signal);
}

/** How long a process may take to start (each loads the service; on 2 busy cores, five at once take a while). */
const START_BOUND_MS = 240_000;

export const SITE_ORIGIN = "https://shop.example.com";
export const APP_SECRET = "topology-realtime-secret-0123456789abcdef";

/** One `bin/frontdesk serve` process behind the balancer. */
export interface ServeNode {
  name: string;
  port: number;
  url: string;
  child: ChildProcess;
}

/**
 * Three (or `serveCount`) `serve` processes, API only, and two `worker` processes on one Postgres
 * database and one Redis prefix, behind HAProxy with the configuration docs/scaling.md shows
 * (scripts/topology/haproxy-config.mjs). Every process is a real bin/frontdesk from the built dist.
 */
export interface TopologyCluster {
  database: TestDatabase;
  env: Record<string, string>;
  /** The balancer: what browsers and consoles use (FRONTDESK_PUBLIC_URL). */
  url: string;
  port: number;
  serves: ServeNode[];
  workers: WatchedProcess[];
  workspaceId: string;
  agentId: string;
  /** How long starting took, by step (ms), for the test's report line. */
  startup: Record<string, number>;
  /** Which of the balancer's servers are up, by name (its health checks of /healthz). */
  balancerStatus(): Promise<Record<string, string>>;
  /** How many times the balancer took each server out (UP → DOWN), by name. */
  balancerDowns(): Promise<Record<string, number>>;
  /** The WebSockets each serve process holds (its `frontdesk_realtime_connections`); a dead process counts null. */
  connectionsPerNode(): Promise<(number | null)[]>;
  stop(): Promise<void>;
}

export async function startTopology(options: { serveCount?: number; workerCount?: number } = {}): Promise<TopologyCluster> {
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    return await startProcesses(options, cleanups);
  } catch (error) {
    // A start that failed half-way leaves no process, data dir or database behind.
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    throw error;
  }
}

async function startProcesses(options: { serveCount?: number; workerCount?: number }, cleanups: (() => Promise<unknown>)[]): Promise<TopologyCluster> {
  const serveCount = options.serveCount ?? 3;
  const workerCount = options.workerCount ?? 2;
  const began = Date.now();
  const startup: Record<string, number> = {};
  const database = await createTestDatabase("postgres");
  cleanups.push(() => database.drop());
  startup.database = Date.now() - began;
  const [port, statsPort, ...servePorts] = await Promise.all(Array.from({ length: serveCount + 2 }, () => freePort()));
  const url = `http://127.0.0.1:${port!}`;
  const dataDirs: string[] = [];
  const dataDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), "frontdesk-topology-"));
    dataDirs.push(dir);
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    return dir;
  };
  const env: Record<string, string> = {
    FRONTDESK_DATABASE_URL: database.url!,
    // Small pools: five processes share the test machine's Postgres with the other test files.
    FRONTDESK_DATABASE_POOL_SIZE: "4",
    FRONTDESK_REDIS_URL: redisUrl,
    FRONTDESK_REDIS_PREFIX: `frontdesk-topology-${randomUUID()}:`,
    FRONTDESK_REALTIME_APP_SECRET: APP_SECRET,
    FRONTDESK_REALTIME_NODE_EXPIRY_SECONDS: "2",
    FRONTDESK_JWT_SECRET: "topology-jwt-secret-0123456789abcdef0123",
    FRONTDESK_PUBLIC_URL: url,
    FRONTDESK_TRUSTED_PROXIES: "127.0.0.1",
    FRONTDESK_EMBEDDINGS_PROVIDER: "hashing",
    FRONTDESK_LOG_LEVEL: "warn",
    FRONTDESK_RATE_LIMIT_PROFILE: "high",
    FRONTDESK_RATE_LIMIT_INIT_PER_MINUTE: "100000",
    FRONTDESK_RATE_LIMIT_INIT_PER_HOUR_PER_IP: "0",
    FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "100000",
    FRONTDESK_DATA_DIR: await dataDir(),
  };
  const workspaceId = json(await run(env, "admin", "workspace", "create", "--name", "Acme")).id;
  const agentId = json(await run(env, "admin", "agent", "create", "--workspace", workspaceId, "--name", "Bot", "--origin", SITE_ORIGIN)).id;

  const startServe = async (index: number): Promise<ServeNode> => {
    const servePort = servePorts[index]!;
    const url = `http://127.0.0.1:${servePort}`;
    const serve = frontdesk({ ...env, FRONTDESK_DATA_DIR: await dataDir(), FRONTDESK_WORKER_CONCURRENCY: "0" }, "serve", "--host", "127.0.0.1", "--port", String(servePort));
    cleanups.push(() => stopChild(serve.child, "SIGKILL"));
    // A bound for a stuck start on a loaded machine (five processes load the service at once), not a speed.
    const deadline = Date.now() + START_BOUND_MS;
    for (;;) {
      if (serve.child.exitCode !== null) throw new Error(`serve${index + 1} exited with ${serve.child.exitCode}: ${serve.output()}`);
      if (await fetch(`${url}/healthz`).then((response) => response.ok, () => false)) break;
      if (Date.now() > deadline) throw new Error(`serve${index + 1} was not healthy within ${START_BOUND_MS} ms: ${serve.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return { name: `serve${index + 1}`, port: servePort, url, child: serve.child };
  };
  const startWorker = async () => {
    // At info, so that its "workers started" line says it is ready.
    const worker = frontdesk({ ...env, FRONTDESK_DATA_DIR: await dataDir(), FRONTDESK_LOG_LEVEL: "info" }, "worker");
    cleanups.push(() => stopChild(worker.child, "SIGKILL"));
    await worker.waitFor(/workers started/, START_BOUND_MS);
    return worker;
  };
  // All at once: each spends its first seconds loading the service, which the machine's cores share.
  const [serves, workers] = await Promise.all([
    Promise.all(Array.from({ length: serveCount }, (_, index) => startServe(index))),
    Promise.all(Array.from({ length: workerCount }, () => startWorker())),
  ]);
  startup.processes = Date.now() - began;
  const stats = `127.0.0.1:${statsPort!}`;
  const config = haproxyConfig({ bind: `127.0.0.1:${port!}`, servers: serves.map((serve) => ({ name: serve.name, address: `127.0.0.1:${serve.port}` })), stats, checkIntervalMs: 500 });
  const haproxy = await startHaproxy({ path: haproxyPath, config, bind: `127.0.0.1:${port!}` });
  killedWithTestProcess(haproxy.child);
  cleanups.push(() => haproxy.stop());

  const balancerStatus = async () => {
    const rows = await haproxyStats(stats);
    return Object.fromEntries(rows.filter((row) => row.pxname === "serve" && row.svname?.startsWith("serve")).map((row) => [row.svname!, row.status!]));
  };
  // The balancer sends nothing to a process before its first health check passes.
  const deadline = Date.now() + 30_000;
  while (Object.values(await balancerStatus()).filter((status) => status === "UP").length < serveCount) {
    if (Date.now() > deadline) throw new Error(`the balancer did not see every serve up: ${JSON.stringify(await balancerStatus())}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  startup.balancer = Date.now() - began;
  return {
    database,
    env,
    startup,
    url,
    port: port!,
    serves,
    workers,
    workspaceId,
    agentId,
    balancerStatus,
    async balancerDowns() {
      const rows = await haproxyStats(stats);
      return Object.fromEntries(rows.filter((row) => row.pxname === "serve" && row.svname?.startsWith("serve")).map((row) => [row.svname!, Number(row.chkdown ?? 0)]));
    },
    async connectionsPerNode() {
      return Promise.all(
        serves.map(async (serve) => {
          if (serve.child.exitCode !== null || serve.child.signalCode !== null) return null;
          const text = await (await fetch(`${serve.url}/metrics`)).text();
          return sampleValue(parsePrometheusText(text), "frontdesk_realtime_connections") ?? 0;
        }),
      );
    },
    async stop() {
      await haproxy.stop();
      await Promise.all([...serves.map((serve) => stopChild(serve.child)), ...workers.map((worker) => stopChild(worker.child))]);
      await database.drop();
      await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
    },
  };
}
