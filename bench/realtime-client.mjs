// The load client of bench/realtime.mjs, in its own process (forked, driven over IPC): raw `ws`
// sockets speaking the Pusher protocol (version 7) to `frontdesk serve`. It opens groups of
// connections, each subscribed to a public channel, answers the server's pusher:ping, and times
// every `bench` event it receives: receipt time minus the publish time carried in the event's data
// (both read as performance.timeOrigin + performance.now(), the same machine clock, in ms).
//
// Messages from the parent: {id, cmd: "open", group, url, count, channel: "name" | "prefix-{n}", concurrency}
// → {id, opened, ms}; {id, cmd: "expect", total, timeoutMs} → {id, received, latencies summary,
// firstAt, lastAt}; {id, cmd: "close", group} → {id, closed}. Errors answer {id, error}.
import { performance } from "node:perf_hooks";
import WebSocket from "ws";

const now = () => performance.timeOrigin + performance.now();
const groups = new Map();
let expectation = null;

function onBenchEvent(data) {
  const receivedAt = now();
  if (!expectation) return;
  const { t } = JSON.parse(data);
  expectation.latencies.push(receivedAt - t);
  expectation.firstAt ??= receivedAt;
  expectation.lastAt = receivedAt;
  if (expectation.latencies.length >= expectation.total) expectation.finish();
}

/** One socket: resolves once subscribed to `channel`; rejects on a close or error before that. */
function connect(url, channel) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    let subscribed = false;
    socket.on("message", (raw) => {
      const message = JSON.parse(raw.toString());
      switch (message.event) {
        case "bench":
          onBenchEvent(message.data);
          break;
        case "pusher:connection_established":
          socket.send(JSON.stringify({ event: "pusher:subscribe", data: { channel } }));
          break;
        case "pusher_internal:subscription_succeeded":
          subscribed = true;
          resolve(socket);
          break;
        case "pusher:ping":
          socket.send('{"event":"pusher:pong","data":{}}');
          break;
        case "pusher:subscription_error":
        case "pusher:error":
          if (!subscribed) reject(new Error(`${message.event}: ${JSON.stringify(message.data)}`));
          break;
        default:
      }
    });
    socket.on("error", (error) => {
      if (!subscribed) reject(error);
    });
    socket.on("close", (code) => {
      if (!subscribed) reject(new Error(`closed with ${code} before subscribing`));
      else if (!socket.benchClosing) process.send?.({ event: "unexpected-close", code });
    });
  });
}

async function open({ group, url, count, channel, concurrency }) {
  const sockets = groups.get(group) ?? [];
  groups.set(group, sockets);
  const started = now();
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const n = next++;
      sockets.push(await connect(url, channel.replace("{n}", String(n))));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return { opened: sockets.length, ms: Math.round(now() - started) };
}

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function expect({ total, timeoutMs }) {
  return new Promise((resolve) => {
    const latencies = [];
    const finish = () => {
      clearTimeout(timer);
      expectation = null;
      const sorted = Float64Array.from(latencies).sort();
      const round = (value) => (value === null ? null : Math.round(value * 1000) / 1000);
      resolve({
        received: latencies.length,
        p50: round(percentile(sorted, 50)),
        p90: round(percentile(sorted, 90)),
        p99: round(percentile(sorted, 99)),
        max: round(sorted.length ? sorted[sorted.length - 1] : null),
        min: round(sorted.length ? sorted[0] : null),
        firstAt: state.firstAt,
        lastAt: state.lastAt,
      });
    };
    const state = { total, latencies, firstAt: null, lastAt: null, finish };
    expectation = state;
    const timer = setTimeout(finish, timeoutMs);
  });
}

async function close({ group }) {
  const sockets = groups.get(group) ?? [];
  groups.delete(group);
  await Promise.all(
    sockets.map(
      (socket) =>
        new Promise((resolve) => {
          socket.benchClosing = true;
          if (socket.readyState === WebSocket.CLOSED) return resolve();
          socket.once("close", resolve);
          socket.close(1000);
        }),
    ),
  );
  return { closed: sockets.length };
}

const commands = { open, expect, close };

process.on("message", async ({ id, cmd, ...args }) => {
  try {
    process.send({ id, ...(await commands[cmd](args)) });
  } catch (error) {
    process.send({ id, error: error.message });
  }
});
process.on("disconnect", () => process.exit(0));
