#!/usr/bin/env node
// What a `frontdesk` process costs to start, on the embedded store (already initialised and
// migrated): `serve` until /healthz answers, and a short admin command to its exit. CPU is the
// process's own (user + system, every thread), read from /proc when it is ready.
//   node bench/start.mjs [runs=9]
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../bin/frontdesk", import.meta.url));
const RUNS = Number(process.argv[2] ?? 9);
const TICKS = 100; // USER_HZ

const cpuSecondsOf = (pid) => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
};

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

function exited(child) {
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

async function serveOnce(env) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, "serve", "--host", "127.0.0.1", "--port", String(port)], { env, stdio: "ignore" });
  const exit = exited(child);
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then((response) => response.ok, () => false);
    if (ok) break;
    if (child.exitCode !== null) throw new Error(`serve exited ${child.exitCode}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const wallMs = performance.now() - started;
  const cpuMs = cpuSecondsOf(child.pid) * 1000;
  child.kill("SIGTERM");
  await exit;
  return { wallMs, cpuMs };
}

async function commandOnce(env, args) {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: "ignore" });
  let cpuMs = 0;
  // The last reading before it exits: /proc/<pid>/stat stays readable until the parent reaps it.
  const poll = setInterval(() => {
    try {
      cpuMs = cpuSecondsOf(child.pid) * 1000;
    } catch {}
  }, 5);
  const code = await exited(child);
  clearInterval(poll);
  if (code !== 0) throw new Error(`${args.join(" ")} exited ${code}`);
  return { wallMs: performance.now() - started, cpuMs };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const dataDir = await mkdtemp(join(tmpdir(), "frontdesk-bench-start-"));
const env = { PATH: process.env.PATH, FRONTDESK_DATA_DIR: dataDir, FRONTDESK_LOG_LEVEL: "warn", FRONTDESK_EMBEDDINGS_PROVIDER: "hashing" };
try {
  // The first start initialises and migrates the store: not counted.
  await commandOnce(env, ["migrate"]);
  const rows = [];
  for (const [name, once] of [
    ["serve, until /healthz answers", () => serveOnce(env)],
    ["admin workspace list", () => commandOnce(env, ["admin", "workspace", "list"])],
    ["--version", () => commandOnce(env, ["--version"])],
  ]) {
    await once(); // warm-up
    const runs = [];
    for (let i = 0; i < RUNS; i += 1) runs.push(await once());
    rows.push({ name, wallMs: median(runs.map((run) => run.wallMs)), cpuMs: median(runs.map((run) => run.cpuMs)) });
  }
  console.log(`| process (${RUNS} runs, medians) | wall | CPU (user + sys) |\n|---|---|---|`);
  for (const row of rows) console.log(`| ${row.name} | ${row.wallMs.toFixed(0)} ms | ${row.cpuMs.toFixed(0)} ms |`);
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
