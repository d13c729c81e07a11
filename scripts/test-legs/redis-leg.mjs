// The `redis` leg: a Redis answering PING at FRONTDESK_TEST_REDIS_URL. Provisioning starts the
// machine's redis-server at 127.0.0.1:6379 when nothing answers there (root only).
import { mkdirSync } from "node:fs";
import { createConnection } from "node:net";
import { isLoopback, redactUrl, waitUntilReady } from "./machine.mjs";

/** @typedef {import("./legs.mjs").Leg} Leg */

const DEFAULT_URL = "redis://127.0.0.1:6379";
const MANAGED_PORT = 6379;

/**
 * Sends PING (after AUTH when the URL carries a password) over a plain TCP socket.
 * @param {string} url
 * @returns {Promise<{ ready: boolean, problem: string }>}
 */
function probeRedis(url) {
  const { hostname, port, username, password } = new URL(url);
  const where = redactUrl(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname.replace(/^\[|\]$/g, ""), port: Number(port || MANAGED_PORT) });
    let reply = "";
    const finish = (/** @type {boolean} */ ready, /** @type {string} */ problem) => {
      socket.destroy();
      resolve({ ready, problem });
    };
    socket.setTimeout(3000, () => finish(false, `no answer from ${where} within 3 s`));
    socket.on("error", (error) => finish(false, `cannot connect to ${where} (${error.message})`));
    socket.on("connect", () => {
      const auth = password
        ? `AUTH ${username ? `${decodeURIComponent(username)} ` : ""}${decodeURIComponent(password)}\r\n`
        : "";
      socket.write(`${auth}PING\r\n`);
    });
    socket.on("data", (chunk) => {
      reply += chunk.toString("utf8");
      if (reply.includes("+PONG")) finish(true, "");
      else if (reply.startsWith("-") && reply.includes("\r\n")) finish(false, `${where} answered ${reply.trim()}`);
    });
  });
}

/** @type {Leg} */
export const redisLeg = {
  name: "redis",
  needs: "Redis",
  target: (env) => env.FRONTDESK_TEST_REDIS_URL || DEFAULT_URL,
  probe: probeRedis,
  async provision(url, first, { machine, did }) {
    const { hostname, port } = new URL(url);
    const host = hostname.replace(/^\[|\]$/g, "");
    if (!isLoopback(host)) return { ready: false, problem: `${first.problem}; ${host} is another machine, which this script leaves alone` };
    if (!machine.hasCommand("redis-server")) return { ready: false, problem: `${first.problem}; Redis is not installed here (no redis-server)` };
    if (!machine.isRoot()) return { ready: false, problem: `${first.problem}; starting it needs root (running as uid ${machine.uid()})` };
    if (Number(port || MANAGED_PORT) !== MANAGED_PORT) {
      return { ready: false, problem: `${first.problem}; this script starts Redis only at 127.0.0.1:${MANAGED_PORT}` };
    }
    mkdirSync("/var/lib/redis", { recursive: true });
    mkdirSync("/var/log/redis", { recursive: true });
    const started = await machine.run("redis-server", [
      "--daemonize", "yes", "--bind", "127.0.0.1", "-::1", "--port", String(MANAGED_PORT), "--save", "", "--appendonly", "no",
      "--dir", "/var/lib/redis", "--logfile", "/var/log/redis/ci.log",
    ]);
    if (started.code !== 0) return { ready: false, problem: `${first.problem}; redis-server did not start: ${started.output.trim()}` };
    did(`started redis-server at 127.0.0.1:${MANAGED_PORT}`);
    return waitUntilReady(() => probeRedis(url), 30);
  },
};
