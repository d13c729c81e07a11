// A child process of `bench/answers.mjs` (burst mode): sends GET <baseUrl>/healthz (which asks the
// store) and GET /livez (which touches nothing: the event loop's delay alone) every `intervalMs`,
// whether or not the previous ones have answered (so a stalled service is not sampled less), and
// times each on its own clock, apart from the process that drives the answer streams. Started with
// fork(); on the message "stop" it waits for the requests still out (at most 10 s), sends back
// `{ healthz, livez }`, each `{ latenciesMs, series, failures, statuses }`, and `lateMs` (how late
// each tick of its own timer fired: the delay this process itself waited for a CPU, which every
// latency it measures also holds, since it reads a response only when it runs), and exits.
import { Agent, request as httpRequest } from "node:http";

const [baseUrl, intervalArgument] = process.argv.slice(2);
const intervalMs = Number(intervalArgument ?? 20);
const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
const startedAt = performance.now();
let outstanding = 0;

function sampled(path) {
  /** `series`: [ms since the sampler started, latency ms] of each answered request, for a timeline. */
  const figures = { latenciesMs: [], series: [], failures: 0, statuses: {} };
  const sample = () => {
    const sentAt = performance.now();
    outstanding += 1;
    const request = httpRequest(`${baseUrl}${path}`, { agent }, (response) => {
      response.resume();
      response.on("end", () => {
        const latency = performance.now() - sentAt;
        figures.latenciesMs.push(latency);
        figures.series.push([Math.round(sentAt - startedAt), Math.round(latency * 10) / 10]);
        figures.statuses[response.statusCode] = (figures.statuses[response.statusCode] ?? 0) + 1;
        outstanding -= 1;
      });
    });
    request.on("error", () => {
      figures.failures += 1;
      outstanding -= 1;
    });
    request.end();
  };
  return { figures, sample };
}

const healthz = sampled("/healthz");
const livez = sampled("/livez");
const lateMs = [];
let lastTick = null;
const timer = setInterval(() => {
  const now = performance.now();
  if (lastTick !== null) lateMs.push(Math.max(0, now - lastTick - intervalMs));
  lastTick = now;
  healthz.sample();
  livez.sample();
}, intervalMs);

process.on("message", async (message) => {
  if (message !== "stop") return;
  clearInterval(timer);
  const deadline = performance.now() + 10_000;
  while (outstanding > 0 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  const unanswered = (figures) => ({ ...figures, failures: figures.failures + (outstanding > 0 ? 1 : 0) });
  process.send({ healthz: unanswered(healthz.figures), livez: unanswered(livez.figures), lateMs }, () => process.exit(0));
});
