// The `haproxy` leg: Debian's HAProxy, the load balancer the topology test puts in front of three
// `serve` processes (packages/server/test/topology/): each test starts its own `haproxy -db -f <conf>`
// on free loopback ports with a generated configuration (scripts/topology/haproxy-config.mjs) and
// stops it by its pid. The machine's own HAProxy service is never started: provisioning installs
// Debian's `haproxy` package with apt-get (root only) and disables the service the package enables,
// stopping it if it runs. The binary is FRONTDESK_TEST_HAPROXY_PATH, by default /usr/sbin/haproxy.
import { spawn } from "node:child_process";
import { access, constants } from "node:fs/promises";
import { aptInstall } from "./apt-install.mjs";

/** @typedef {import("./legs.mjs").Leg} Leg */

export const DEBIAN_HAPROXY = "/usr/sbin/haproxy";

/**
 * `path -v`, which HAProxy answers with "HAProxy version 2.6.12-1+deb12u4 2026/10/17 - …".
 * @param {string} path
 * @returns {Promise<{ ready: boolean, problem: string }>}
 */
async function probeHaproxy(path) {
  try {
    await access(path, constants.X_OK);
  } catch {
    return { ready: false, problem: `no HAProxy at ${path}` };
  }
  return new Promise((resolve) => {
    const child = spawn(path, ["-v"], { stdio: ["ignore", "pipe", "pipe"], timeout: 10_000 });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk.toString("utf8")));
    child.on("error", (error) => resolve({ ready: false, problem: `${path} does not run (${error.message})` }));
    child.on("close", (code) => {
      if (code === 0 && /HA-?Proxy version \d+\.\d+/.test(output)) resolve({ ready: true, problem: "" });
      else resolve({ ready: false, problem: `${path} -v exited ${code ?? "on a signal"} without naming an HAProxy version` });
    });
  });
}

/**
 * The package enables and (where services may start) starts `haproxy.service` with Debian's sample
 * configuration; the tests want the binary only.
 * @param {typeof import("./machine.mjs").machine} machine
 * @param {(action: string) => void} did
 */
async function leaveServiceStopped(machine, did) {
  if (machine.hasCommand("systemctl")) {
    const disabled = await machine.run("systemctl", ["disable", "--now", "haproxy"]);
    if (disabled.code === 0) return did("disabled and stopped the haproxy service the package enabled");
    // No systemd running (a container): disabling still works offline, stopping goes through the init script.
    const offline = await machine.run("systemctl", ["disable", "haproxy"]);
    if (offline.code === 0) did("disabled the haproxy service the package enabled");
  }
  if (machine.hasCommand("service")) {
    const stopped = await machine.run("service", ["haproxy", "stop"]);
    if (stopped.code === 0) did("stopped the haproxy service");
  }
}

/** @type {Leg} */
export const haproxyLeg = {
  name: "haproxy",
  needs: "HAProxy (Debian's haproxy) for the topology test of several serve processes behind a load balancer",
  target: (env) => env.FRONTDESK_TEST_HAPROXY_PATH || DEBIAN_HAPROXY,
  probe: probeHaproxy,
  async provision(path, first, { machine, did }) {
    if (path !== DEBIAN_HAPROXY) return { ready: false, problem: `${first.problem}; this script installs HAProxy only at ${DEBIAN_HAPROXY} (Debian's package)` };
    if (!machine.hasCommand("apt-get")) return { ready: false, problem: `${first.problem}; installing it needs apt-get, which this machine lacks` };
    if (!machine.isRoot()) return { ready: false, problem: `${first.problem}; installing it needs root (running as uid ${machine.uid()})` };
    const installed = await aptInstall(machine, "haproxy");
    if (!installed.ok) return { ready: false, problem: `${first.problem}; \`apt-get install haproxy\` failed: ${installed.tail}` };
    did("installed Debian's haproxy package with apt-get");
    await leaveServiceStopped(machine, did);
    return probeHaproxy(path);
  },
};
