// The burst of `bench/answers.mjs` (BENCH_MODES=burst): BENCH_BURST_STREAMS visitors (500) each
// asking through POST /messages/stream, back to back, for BENCH_BURST_SECONDS, against a model
// server that sends each answer in pieces spaced by BENCH_BURST_PIECE_MS (so that the streams stay
// open together, as a real model's do), while another process (healthz-sampler.mjs) sends GET
// /healthz (and /livez, the event loop alone) every BENCH_HEALTHZ_INTERVAL_MS and times them. /healthz is sampled the same way, for the
// same time, with the service idle just before: the two distributions side by side.
import { fork } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { askStreamed, runVisitors } from "./answers-load.mjs";
import { percentile, summarisePhase } from "./answers-report.mjs";
import { log, sleep } from "./answers-service.mjs";

const samplerScript = join(dirname(fileURLToPath(import.meta.url)), "healthz-sampler.mjs");

/** Starts the sampler process; `stop()` resolves with its figures. */
function startHealthzSampler(baseUrl, intervalMs) {
  const child = fork(samplerScript, [baseUrl, String(intervalMs)], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const reported = new Promise((resolve, reject) => {
    child.once("message", resolve);
    child.once("exit", (code) => reject(new Error(`the /healthz sampler exited with code ${code} before reporting`)));
  });
  return {
    async stop() {
      child.send("stop");
      return reported;
    },
  };
}

/** The worst /healthz latency of each second of the sampling: where in the burst the slow ones were. */
function worstBySecond(series) {
  const worst = [];
  for (const [at, ms] of series) {
    const second = Math.floor(at / 1000);
    worst[second] = Math.max(worst[second] ?? 0, ms);
  }
  return Array.from(worst, (ms) => ms ?? null);
}

function healthzFigures({ latenciesMs, series, failures, statuses }) {
  const round = (value) => (value === null ? null : Math.round(value * 10) / 10);
  return {
    samples: latenciesMs.length,
    failures,
    statuses,
    p50: round(percentile(latenciesMs, 50)),
    p90: round(percentile(latenciesMs, 90)),
    p99: round(percentile(latenciesMs, 99)),
    max: round(latenciesMs.length ? Math.max(...latenciesMs) : null),
    worstBySecond: worstBySecond(series),
    series,
  };
}

/** How late the sampler's own timer fired (ms): the part of each latency it measured that was its own wait for a CPU. */
function lateness(lateMs) {
  const round = (value) => (value === null ? null : Math.round(value * 10) / 10);
  return { p50: round(percentile(lateMs, 50)), p99: round(percentile(lateMs, 99)), max: round(lateMs.length ? Math.max(...lateMs) : null) };
}

/**
 * Runs the burst against `baseUrl` and returns the phase: the streams' figures (as every phase
 * has them), how many streams were open at once (sampled every 100 ms while the burst ran), and
 * /healthz idle and under the burst.
 */
export async function runBurst({ baseUrl, agentId, questions, streams, durationMs, healthzIntervalMs, measure }) {
  const idleSampler = startHealthzSampler(baseUrl, healthzIntervalMs);
  await sleep(Math.min(durationMs, 5000));
  const idleSamples = await idleSampler.stop();
  const idle = healthzFigures(idleSamples.healthz);
  const livezIdle = healthzFigures(idleSamples.livez);
  const samplerLateIdle = lateness(idleSamples.lateMs);

  let open = 0;
  const openSamples = [];
  const ask = async (...args) => {
    open += 1;
    try {
      return await askStreamed(...args);
    } finally {
      open -= 1;
    }
  };
  let sampler;
  let openTimer;
  let samplesDuringBurst;
  const outcome = await measure(() =>
    runVisitors({
      baseUrl,
      agentId,
      visitors: streams,
      durationMs,
      questions,
      ask,
      // Each visitor on a connection of its own, opened by its init, as 500 browsers would be:
      // the burst is 500 questions at once, not also 500 connections opened at once.
      ownConnections: true,
      onStart: () => {
        sampler = startHealthzSampler(baseUrl, healthzIntervalMs);
        openTimer = setInterval(() => openSamples.push(open), 100);
        // The sampling ends with the burst's duration: the streams still finishing after it are no burst.
        samplesDuringBurst = sleep(durationMs).then(async () => {
          clearInterval(openTimer);
          return sampler.stop();
        });
      },
    }),
  );
  const samples = await samplesDuringBurst;
  const healthz = healthzFigures(samples.healthz);
  const livez = healthzFigures(samples.livez);
  const samplerLate = lateness(samples.lateMs);
  log(`/healthz during the burst, the worst of each second (ms): ${healthz.worstBySecond.join(" ")}`);
  log(`/livez during the burst, the worst of each second (ms): ${livez.worstBySecond.join(" ")}`);
  return {
    visitors: streams,
    ...summarisePhase(outcome),
    openStreams: { p50: percentile(openSamples, 50), min: openSamples.length ? Math.min(...openSamples) : null, max: openSamples.length ? Math.max(...openSamples) : null },
    healthzIdle: idle,
    healthz,
    livezIdle,
    livez,
    samplerLateIdle,
    samplerLate,
  };
}
