// The `chromium` leg: Debian's Chromium, which the browser tests drive through playwright-core (a
// browser is never downloaded). The binary is FRONTDESK_TEST_CHROMIUM_PATH, by default
// /usr/bin/chromium; provisioning installs Debian's `chromium` package with apt-get (root only).
import { spawn } from "node:child_process";
import { access, constants } from "node:fs/promises";
import { aptInstall } from "./apt-install.mjs";

/** @typedef {import("./legs.mjs").Leg} Leg */

export const DEBIAN_CHROMIUM = "/usr/bin/chromium";
const VERSION_TIMEOUT_MS = 15_000;

/**
 * `path --version`, which a working Chromium answers with "Chromium 142.0…" (in about a second).
 * @param {string} path
 * @returns {Promise<{ ready: boolean, problem: string }>}
 */
async function probeChromium(path) {
  try {
    await access(path, constants.X_OK);
  } catch {
    return { ready: false, problem: `no Chromium at ${path}` };
  }
  return new Promise((resolve) => {
    const child = spawn(path, ["--version"], { stdio: ["ignore", "pipe", "pipe"], timeout: VERSION_TIMEOUT_MS });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk.toString("utf8")));
    child.on("error", (error) => resolve({ ready: false, problem: `${path} does not run (${error.message})` }));
    child.on("close", (code) => {
      const version = /Chromium \d+[\d.]*/.exec(output);
      if (code === 0 && version) resolve({ ready: true, problem: "" });
      else resolve({ ready: false, problem: `${path} --version exited ${code ?? "on a signal"} without naming a Chromium version` });
    });
  });
}

/**
 * The leg, for a Debian package that installs its binary at `packagePath` (tests point it at a
 * temporary file that their stand-in apt-get writes).
 * @param {{ packagePath?: string }} [options]
 * @returns {Leg}
 */
export function createChromiumLeg({ packagePath = DEBIAN_CHROMIUM } = {}) {
  return {
    name: "chromium",
    needs: "Chromium (Debian's package) for the browser tests",
    target: (env) => env.FRONTDESK_TEST_CHROMIUM_PATH || packagePath,
    probe: probeChromium,
    async provision(path, first, { machine, did }) {
      if (path !== packagePath) return { ready: false, problem: `${first.problem}; this script installs Chromium only at ${packagePath} (Debian's package)` };
      if (!machine.hasCommand("apt-get")) return { ready: false, problem: `${first.problem}; installing it needs apt-get, which this machine lacks` };
      if (!machine.isRoot()) return { ready: false, problem: `${first.problem}; installing it needs root (running as uid ${machine.uid()})` };
      const installed = await aptInstall(machine, "chromium");
      if (!installed.ok) return { ready: false, problem: `${first.problem}; \`apt-get install chromium\` failed: ${installed.tail}` };
      did("installed Debian's chromium package with apt-get");
      return probeChromium(path);
    },
  };
}

export const chromiumLeg = createChromiumLeg();
