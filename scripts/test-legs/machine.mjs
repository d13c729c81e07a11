// What the provisioning legs ask of the machine: who we are, which commands exist, running them.
// One object so that a leg reads as a decision table (see legs.mjs).
import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

/** @typedef {{ code: number | null, output: string }} CommandResult */

/** @param {string} command */
function hasCommand(command) {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      // not in this directory
    }
  }
  return false;
}

/**
 * Runs a command, capturing stdout and stderr together (for the reason of a failure).
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd?: string, env?: Record<string, string> }} [options]
 * @returns {Promise<CommandResult>}
 */
function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const collect = (/** @type {Buffer} */ chunk) => {
      output = (output + chunk.toString("utf8")).slice(-20_000);
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.on("error", (error) => resolve({ code: null, output: `${output}${error.message}` }));
    child.on("close", (code) => resolve({ code, output }));
  });
}

/**
 * Runs a command and throws, with its last lines of output, unless it exits 0.
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd?: string, env?: Record<string, string> }} [options]
 */
async function runOrThrow(command, args, options) {
  const result = await run(command, args, options);
  if (result.code !== 0) {
    const tail = result.output.trim().split("\n").slice(-5).join(" | ");
    throw new Error(`\`${[command, ...args].join(" ")}\` exited ${result.code ?? "without starting"}: ${tail}`);
  }
  return result.output;
}

export const machine = {
  /** Where apt reads its sources (the pgvector build adds trixie's deb-src there when missing). */
  aptSources: { list: "/etc/apt/sources.list", dir: "/etc/apt/sources.list.d" },
  isRoot: () => process.getuid?.() === 0,
  uid: () => process.getuid?.() ?? -1,
  hasCommand,
  run,
  runOrThrow,
};

/** @param {string} host */
export function isLoopback(host) {
  return ["127.0.0.1", "localhost", "::1", "[::1]"].includes(host) || host.startsWith("127.");
}

/** @param {number} ms */
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `probe` until it reports ready or the time is up; returns its last result.
 * @template {{ ready: boolean }} T
 * @param {() => Promise<T>} probe
 * @param {number} seconds
 * @returns {Promise<T>}
 */
export async function waitUntilReady(probe, seconds) {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const result = await probe();
    if (result.ready || Date.now() > deadline) return result;
    await sleep(250);
  }
}

/** A URL with its password masked, for records and logs. @param {string} url */
export function redactUrl(url) {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return url;
  }
}
