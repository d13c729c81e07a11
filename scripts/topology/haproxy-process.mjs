// Starts HAProxy in the foreground (`haproxy -db -f <conf>`) with a generated configuration in a
// temporary directory, for the topology test and bench/topology.mjs; never the machine's service.
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** @param {string} address "host:port" */
function accepts(address) {
  const [host, port] = address.split(":");
  return new Promise((resolve) => {
    const socket = connect(Number(port), host);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * @param {{ path: string, config: string, bind: string }} options
 * @returns {Promise<{ child: import("node:child_process").ChildProcess, output(): string, stop(): Promise<void> }>}
 */
export async function startHaproxy({ path, config, bind }) {
  const dir = await mkdtemp(join(tmpdir(), "frontdesk-haproxy-"));
  const file = join(dir, "haproxy.cfg");
  await writeFile(file, config);
  const child = spawn(path, ["-db", "-f", file], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`haproxy exited with ${child.exitCode}: ${output}`);
    }
    if (await accepts(bind)) return { child, output: () => output, stop };
    await sleep(50);
  }
  await stop();
  throw new Error(`haproxy did not listen on ${bind}: ${output}`);
}

/**
 * HAProxy's statistics as CSV rows (`/stats;csv`): per server, its status and sessions.
 * @param {string} statsAddress
 * @returns {Promise<Record<string, string>[]>}
 */
export async function haproxyStats(statsAddress) {
  const text = await (await fetch(`http://${statsAddress}/stats;csv`)).text();
  const [header, ...rows] = text.trim().split("\n");
  const names = (header ?? "").replace(/^# /, "").split(",");
  return rows.map((row) => Object.fromEntries(row.split(",").map((value, index) => [names[index] ?? String(index), value])));
}
