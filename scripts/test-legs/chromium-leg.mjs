// The Chromium legs: Debian's Chromium, which the browser tests drive through playwright-core (a
// browser is never downloaded), provisioned with apt-get (root only).
// - `chromium-headless-shell`: Debian's `chromium-headless-shell` package, Chromium's headless-only
//   build, which the browser tests use unless they need the whole browser. The same Blink renders the
//   same pages; a browser test file costs the machine about a third less CPU than with the whole
//   browser run headless (the 38 browser files: 339 → 216 s, docs/testing.md).
//   FRONTDESK_TEST_CHROMIUM_HEADLESS_SHELL_PATH, by default /usr/lib/chromium/chromium-headless-shell.
// - `chromium`: the whole browser, Debian's `chromium` package, for what the shell lacks (it denies
//   notifications, so device notifications need it) and for the browser benchmark.
//   FRONTDESK_TEST_CHROMIUM_PATH, by default /usr/bin/chromium.
import { spawn } from "node:child_process";
import { access, constants } from "node:fs/promises";
import { aptInstall } from "./apt-install.mjs";

/** @typedef {import("./legs.mjs").Leg} Leg */

export const DEBIAN_CHROMIUM = "/usr/bin/chromium";
/** The binary itself: /usr/bin/chromium-headless-shell is a shell script that runs it (one process more per launch). */
export const DEBIAN_CHROMIUM_HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";
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
 * @typedef {object} ChromiumLegOptions
 * @property {string} [name]          the leg's name
 * @property {string} [debianPackage] the Debian package that installs the binary
 * @property {string} [packagePath]   where the package puts it (tests point it at a temporary file that their stand-in apt-get writes)
 * @property {string} [variable]      the environment variable that points the leg elsewhere
 * @property {string} [needs]         what the leg provides, in words
 */

/**
 * A Chromium leg: the whole browser by default.
 * @param {ChromiumLegOptions} [options]
 * @returns {Leg}
 */
export function createChromiumLeg({
  name = "chromium",
  debianPackage = "chromium",
  packagePath = DEBIAN_CHROMIUM,
  variable = "FRONTDESK_TEST_CHROMIUM_PATH",
  needs = "Chromium (Debian's package), the whole browser, for the browser tests that need more than the headless shell",
} = {}) {
  return {
    name,
    needs,
    target: (env) => env[variable] || packagePath,
    probe: probeChromium,
    async provision(path, first, { machine, did }) {
      if (path !== packagePath) return { ready: false, problem: `${first.problem}; this script installs Chromium only at ${packagePath} (Debian's package)` };
      if (!machine.hasCommand("apt-get")) return { ready: false, problem: `${first.problem}; installing it needs apt-get, which this machine lacks` };
      if (!machine.isRoot()) return { ready: false, problem: `${first.problem}; installing it needs root (running as uid ${machine.uid()})` };
      const installed = await aptInstall(machine, debianPackage);
      if (!installed.ok) return { ready: false, problem: `${first.problem}; \`apt-get install ${debianPackage}\` failed: ${installed.tail}` };
      did(`installed Debian's ${debianPackage} package with apt-get`);
      return probeChromium(path);
    },
  };
}

export const chromiumLeg = createChromiumLeg();

export const chromiumHeadlessShellLeg = createChromiumLeg({
  name: "chromium-headless-shell",
  debianPackage: "chromium-headless-shell",
  packagePath: DEBIAN_CHROMIUM_HEADLESS_SHELL,
  variable: "FRONTDESK_TEST_CHROMIUM_HEADLESS_SHELL_PATH",
  needs: "Chromium's headless shell (Debian's package) for the browser tests",
});
