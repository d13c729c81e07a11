// The processes of `bench/topology.mjs`: `serve` processes (API and WebSockets, no workers) and
// `worker` processes on one Postgres database and one Redis prefix, and HAProxy in front of the
// serve processes with the configuration of docs/scaling.md (scripts/topology/haproxy-config.mjs).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { haproxyConfig } from "../scripts/topology/haproxy-config.mjs";
import { startHaproxy } from "../scripts/topology/haproxy-process.mjs";
import { BenchFailure, freePort, sleep } from "./bench-service.mjs";

const START_BOUND_MS = 240_000;

/** A `bin/frontdesk <command>` child whose output is kept (the tail), killed when the bench exits. */
function frontdeskProcess(root, env, args) {
  const dataDir = mkdtempSync(join(tmpdir(), "topology-bench-"));
  const child = spawn(process.execPath, [join(root, "bin", "frontdesk"), ...args], { cwd: root, env: { ...env, FRONTDESK_DATA_DIR: dataDir }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const collect = (text) => (output = (output + text).slice(-20_000));
  child.stdout.setEncoding("utf8").on("data", collect);
  child.stderr.setEncoding("utf8").on("data", collect);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  return {
    child,
    output: () => output,
    async stop() {
      process.off("exit", killOnExit);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** `bin/frontdesk serve` on a free port, API only; resolves once /healthz answers. */
export async function startServe(root, env, name) {
  const port = await freePort();
  const started = frontdeskProcess(root, { ...env, FRONTDESK_WORKER_CONCURRENCY: "0" }, ["serve", "--host", "127.0.0.1", "--port", String(port)]);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_BOUND_MS;
  for (;;) {
    if (started.child.exitCode !== null) throw new BenchFailure(`${name} exited with ${started.child.exitCode}: ${started.output()}`);
    if (await fetch(`${url}/healthz`).then((response) => response.ok, () => false)) break;
    if (Date.now() > deadline) throw new BenchFailure(`${name} was not healthy within ${START_BOUND_MS / 1000} s: ${started.output()}`);
    await sleep(200);
  }
  return { ...started, name, port, url, pid: started.child.pid };
}

/** `bin/frontdesk worker`; resolves once it logs "workers started". */
export async function startWorker(root, env) {
  const started = frontdeskProcess(root, { ...env, FRONTDESK_LOG_LEVEL: "info" }, ["worker"]);
  const deadline = Date.now() + START_BOUND_MS;
  while (!started.output().includes("workers started")) {
    if (started.child.exitCode !== null) throw new BenchFailure(`worker exited with ${started.child.exitCode}: ${started.output()}`);
    if (Date.now() > deadline) throw new BenchFailure(`a worker did not start within ${START_BOUND_MS / 1000} s: ${started.output()}`);
    await sleep(200);
  }
  return { ...started, pid: started.child.pid };
}

/** HAProxy on `port` in front of `serves`; resolves once every server's health check passed. */
export async function startBalancer({ haproxyPath, port, serves }) {
  const statsPort = await freePort();
  const config = haproxyConfig({ bind: `127.0.0.1:${port}`, servers: serves.map((serve) => ({ name: serve.name, address: `127.0.0.1:${serve.port}` })), stats: `127.0.0.1:${statsPort}` });
  const haproxy = await startHaproxy({ path: haproxyPath, config, bind: `127.0.0.1:${port}` });
  const deadline = Date.now() + 30_000;
  for (;;) {
    const csv = await (await fetch(`http://127.0.0.1:${statsPort}/stats;csv`)).text();
    const up = csv.split("\n").filter((line) => line.startsWith("serve,serve") && line.split(",")[17] === "UP").length;
    if (up === serves.length) break;
    if (Date.now() > deadline) throw new BenchFailure(`the balancer did not see ${serves.length} serve processes up:\n${csv}`);
    await sleep(100);
  }
  return { ...haproxy, config, pid: haproxy.child.pid };
}

/** A throw-away database named for this bench on the machine's Postgres. */
export async function createTopologyDatabase(adminUrl) {
  const name = `topology_bench_${randomBytes(5).toString("hex")}`;
  const admin = async (sql) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
