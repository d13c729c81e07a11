#!/usr/bin/env node
// The HAProxy configuration of a Frontdesk deployment with several `serve` processes: the one the
// topology test (packages/server/test/topology/) and bench/topology.mjs start in front of their
// processes, and the one docs/scaling.md shows. Run it to print a configuration for your own
// addresses: `node scripts/topology/haproxy-config.mjs 0.0.0.0:80 10.0.0.11:3000 10.0.0.12:3000`.
//
// Why each setting: docs/scaling.md ("The load balancer").

/**
 * @typedef {object} HaproxyLayout
 * @property {string} bind                               where browsers connect, "host:port"
 * @property {{ name: string, address: string }[]} servers   the `serve` processes, "host:port" each
 * @property {string} [stats]                            "host:port" of HAProxy's own statistics page (`/stats`, `/stats;csv`)
 * @property {number} [checkIntervalMs]                  how often each process's /healthz is asked (1000)
 * @property {number} [maxconn]                          connections at once (8000: HAProxy needs two file descriptors each, under `ulimit -n`)
 */

/**
 * @param {HaproxyLayout} layout
 * @returns {string}
 */
export function haproxyConfig({ bind, servers, stats, checkIntervalMs = 1000, maxconn = 8000 }) {
  const lines = [
    "global",
    `    maxconn ${maxconn}`,
    "",
    "defaults",
    "    mode http",
    "    timeout connect 5s",
    // A request's headers must arrive within 10 s; a kept-alive browser connection may idle 60 s.
    "    timeout http-request 10s",
    "    timeout http-keep-alive 60s",
    // Client and server inactivity: above the 15 s SSE heartbeat and the model's timeout (20 s), so
    // a streamed answer is never cut while the model thinks.
    "    timeout client 75s",
    "    timeout server 75s",
    // Once a WebSocket is upgraded, this timeout alone applies; Pusher's pings (every 30 s of
    // silence) keep a live socket well inside it.
    "    timeout tunnel 1h",
    "    timeout client-fin 30s",
    "    timeout queue 10s",
    // A health check's answer may take this long: a process whose event loop is busy answers
    // /healthz late, and taking it out (which closes its sockets) for that would be worse.
    "    timeout check 3s",
    // A connection refused by a process that just died is retried on another one.
    "    retries 3",
    "    option redispatch 1",
    "    option forwardfor",
    "",
    "frontend frontdesk",
    `    bind ${bind}`,
    "    default_backend serve",
    "",
    "backend serve",
    // Long-lived sockets make connection counts, not request counts, the measure of a process's load.
    "    balance leastconn",
    "    option httpchk",
    "    http-check send meth GET uri /healthz",
    "    http-check expect status 200",
    // Which process answered, for the operator's eyes (and the topology test's spread check).
    "    http-response set-header X-Frontdesk-Node %s",
    `    default-server check inter ${checkIntervalMs} fall 3 rise 2 on-marked-down shutdown-sessions`,
    ...servers.map((server) => `    server ${server.name} ${server.address}`),
  ];
  if (stats) lines.push("", "listen stats", `    bind ${stats}`, "    stats enable", "    stats uri /stats", "    stats refresh 5s");
  return `${lines.join("\n")}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [bind, ...addresses] = process.argv.slice(2);
  if (!bind || addresses.length === 0) {
    process.stderr.write("usage: node scripts/topology/haproxy-config.mjs BIND_HOST:PORT SERVE_HOST:PORT [SERVE_HOST:PORT …]\n");
    process.exit(2);
  }
  process.stdout.write(haproxyConfig({ bind, servers: addresses.map((address, index) => ({ name: `serve${index + 1}`, address })) }));
}
