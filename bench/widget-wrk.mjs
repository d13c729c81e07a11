// Runs wrk with bench/widget-load.lua for bench/widget.mjs and turns its summary into a result.
import { randomBytes } from "node:crypto";
import { BenchFailure, run } from "./widget-service.mjs";

/** wrk's version line; `wrk --version` exits 1 after printing it. */
export async function wrkVersion() {
  const outcome = await run("wrk", ["--version"]).catch((error) => error);
  if (outcome.code === "ENOENT") throw new BenchFailure("wrk is not installed (Debian: apt-get install wrk)");
  return `${outcome.stdout ?? ""}${outcome.stderr ?? ""}`.split("\n")[0].trim();
}

/** One wrk run of `route`; resolves to the JSON the Lua `done` function prints. */
export async function runWrk({ luaScript, baseUrl, route, sessionFile, duration, threads, connections }) {
  // A fresh tag per wrk run keeps anon_ids and e-mails of the warm-up out of the measured run.
  const invocation = randomBytes(3).toString("hex");
  const args = ["-t", String(threads), "-c", String(connections), "-d", duration, "--timeout", "10s", "-s", luaScript, baseUrl];
  args.push("--", route, sessionFile, invocation);
  const { stdout } = await run("wrk", args, { maxBuffer: 16 * 1024 * 1024 }).catch((error) => {
    throw new BenchFailure(`wrk failed for ${route}: ${error.stderr || error.message}`);
  });
  const line = stdout.split("\n").find((candidate) => candidate.startsWith("BENCH_RESULT "));
  if (!line) throw new BenchFailure(`wrk printed no BENCH_RESULT line for ${route}:\n${stdout}`);
  return JSON.parse(line.slice("BENCH_RESULT ".length));
}

const milliseconds = (microseconds) => Math.round(microseconds / 10) / 100;

/** requests/s, latency in ms, errors, and whether the route's target is met. */
export function summarize(route, definition, raw) {
  const seconds = raw.duration_us / 1e6;
  const { status, connect, read, write, timeout } = raw.errors;
  const latency = raw.latency_us;
  const result = {
    route,
    method: definition.method,
    path: definition.path,
    note: definition.note,
    requests: raw.requests,
    seconds: Math.round(seconds * 100) / 100,
    requestsPerSecond: Math.round(raw.requests / seconds),
    latencyMs: {
      mean: milliseconds(latency.mean),
      p50: milliseconds(latency.p50),
      p90: milliseconds(latency.p90),
      p99: milliseconds(latency.p99),
      max: milliseconds(latency.max),
    },
    non2xx: status,
    socketErrors: { connect, read, write, timeout },
    errorRate: raw.requests > 0 ? (status + connect + read + write + timeout) / raw.requests : 1,
    target: definition.target,
  };
  const { target } = result;
  result.targetMet = target
    ? result.requestsPerSecond >= target.requestsPerSecond && (target.p99Ms === undefined || result.latencyMs.p99 < target.p99Ms)
    : null;
  return result;
}
