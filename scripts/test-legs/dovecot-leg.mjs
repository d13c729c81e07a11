// The `dovecot` leg: Debian's Dovecot IMAP server, which the tests of replies by e-mail start on a
// loopback port with a configuration of their own (packages/server/test/support/dovecot-server.ts);
// the machine's own Dovecot service is never started or changed. The binary is
// FRONTDESK_TEST_DOVECOT_PATH, by default /usr/sbin/dovecot; provisioning installs Debian's
// `dovecot-imapd` package with apt-get (root only).
import { spawn } from "node:child_process";
import { access, constants } from "node:fs/promises";
import { aptInstall } from "./apt-install.mjs";

/** @typedef {import("./legs.mjs").Leg} Leg */

export const DEBIAN_DOVECOT = "/usr/sbin/dovecot";

/**
 * `path --version`, which Dovecot answers with "2.3.19.1 (9b53102964)".
 * @param {string} path
 * @returns {Promise<{ ready: boolean, problem: string }>}
 */
async function probeDovecot(path) {
  try {
    await access(path, constants.X_OK);
  } catch {
    return { ready: false, problem: `no Dovecot at ${path}` };
  }
  return new Promise((resolve) => {
    const child = spawn(path, ["--version"], { stdio: ["ignore", "pipe", "pipe"], timeout: 10_000 });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk.toString("utf8")));
    child.on("error", (error) => resolve({ ready: false, problem: `${path} does not run (${error.message})` }));
    child.on("close", (code) => {
      if (code === 0 && /^\d+\.\d+/.test(output.trim())) resolve({ ready: true, problem: "" });
      else resolve({ ready: false, problem: `${path} --version exited ${code ?? "on a signal"} without naming a Dovecot version` });
    });
  });
}

/** @type {Leg} */
export const dovecotLeg = {
  name: "dovecot",
  needs: "Dovecot (Debian's dovecot-imapd) for the tests of replies by e-mail",
  target: (env) => env.FRONTDESK_TEST_DOVECOT_PATH || DEBIAN_DOVECOT,
  probe: probeDovecot,
  async provision(path, first, { machine, did }) {
    if (path !== DEBIAN_DOVECOT) return { ready: false, problem: `${first.problem}; this script installs Dovecot only at ${DEBIAN_DOVECOT} (Debian's package)` };
    if (!machine.hasCommand("apt-get")) return { ready: false, problem: `${first.problem}; installing it needs apt-get, which this machine lacks` };
    if (!machine.isRoot()) return { ready: false, problem: `${first.problem}; installing it needs root (running as uid ${machine.uid()})` };
    const installed = await aptInstall(machine, "dovecot-imapd");
    if (!installed.ok) return { ready: false, problem: `${first.problem}; \`apt-get install dovecot-imapd\` failed: ${installed.tail}` };
    did("installed Debian's dovecot-imapd package with apt-get");
    return probeDovecot(path);
  },
};
