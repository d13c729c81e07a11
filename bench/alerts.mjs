#!/usr/bin/env node
// Alerts benchmark: `node bench/alerts.mjs` (see docs/benchmarks.md, section "Alerts").
//
// Does a burst of alerts slow the visitors' answers? One `frontdesk serve` on a fresh Postgres
// database (with Redis), an SMTP server on loopback (nodemailer's smtp-server, in this process)
// that accepts every mail, one agent with a few text sources, BENCH_OPERATORS operators with an
// e-mail and no console open (so every human request finds nobody online and mails them all).
//   before: BENCH_VISITORS visitors ask POST /messages (the extractive answerer) in loops for
//           BENCH_DURATION_SECONDS;
//   during: the same, while BENCH_ALERTS other visitors (sessions started beforehand, not timed)
//           ask for a person at once, BENCH_ALERT_CONCURRENCY requests at a time: each request
//           raises human.requested, whose mail check and push jobs the workers run while the
//           visitors ask; every operator is mailed once per request.
// Prints p50/p99 of /messages in each phase (and the second split: while the requests for a person
// were answered, then while only their alerts were mailed), how long the alert requests took, and how long until
// every alert mail had reached the SMTP server. Writes bench/results/alerts-<date>.json.
//
// Environment (all optional):
//   BENCH_ALERTS=1000   BENCH_ALERT_CONCURRENCY=50   BENCH_OPERATORS=1   BENCH_VISITORS=8
//   BENCH_DURATION_SECONDS=20   BENCH_WARMUP_SECONDS=5   BENCH_MAIL_CONCURRENCY= (FRONTDESK_MAIL_CONCURRENCY)
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres   BENCH_REDIS_URL=redis://127.0.0.1:6379
//   BENCH_FRONTDESK_ROOT=<checkout>
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { SMTPServer } from "smtp-server";
import { askSync, ORIGIN, runVisitors, startVisitor } from "./answers-load.mjs";
import { BenchFailure, createBenchDatabase, runAdmin, sleep, sourcesClient, startService } from "./bench-service.mjs";

const log = (message) => process.stderr.write(`[alerts] ${message}\n`);

const repositoryRoot = dirname(dirname(fileURLToPath(import.meta.url)));
const root = process.env.BENCH_FRONTDESK_ROOT ?? repositoryRoot;
const number = (name, fallback) => (process.env[name] === undefined || process.env[name] === "" ? fallback : Number(process.env[name]));
const settings = {
  alerts: number("BENCH_ALERTS", 1000),
  alertConcurrency: number("BENCH_ALERT_CONCURRENCY", 50),
  operators: number("BENCH_OPERATORS", 1),
  visitors: number("BENCH_VISITORS", 8),
  durationMs: number("BENCH_DURATION_SECONDS", 20) * 1000,
  warmupMs: number("BENCH_WARMUP_SECONDS", 5) * 1000,
  mailConcurrency: process.env.BENCH_MAIL_CONCURRENCY,
};
const databaseAdminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const redisUrl = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";

const FACTS = [
  "Orders ship within two working days from our warehouse. Tracking links arrive by e-mail once a parcel leaves.",
  "Returns are accepted within 30 days of delivery when the item is unused and in its original packaging.",
  "Our support line is open Monday to Friday from 8am to 6pm. Outside these hours, leave a message.",
  "Gift cards never expire and can be used for any product in the shop, including sale items.",
  "Payment is by card, bank transfer or invoice for business customers with an account.",
];
const QUESTIONS = ["How long do returns take?", "When do orders ship?", "When is support open?", "Do gift cards expire?", "How can I pay?"];

/** An SMTP server on loopback that accepts every mail and counts them, with the time each arrived. */
async function startMailSink() {
  const arrivals = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      stream.on("data", () => undefined);
      stream.on("end", () => {
        arrivals.push(performance.now());
        callback();
      });
    },
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: server.server.address().port, arrivals, close: () => new Promise((resolve) => server.close(resolve)) };
}

const percentile = (sorted, p) => (sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);
const round = (value) => (value === null ? null : Math.round(value * 10) / 10);

function summarise(results) {
  const ok = results.filter((result) => result.error === null);
  const times = ok.map((result) => result.totalMs).sort((a, b) => a - b);
  return { requests: results.length, failed: results.length - ok.length, p50Ms: round(percentile(times, 50)), p99Ms: round(percentile(times, 99)) };
}

async function requestHumans(baseUrl, sessions, concurrency) {
  const started = performance.now();
  const statuses = new Map();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < sessions.length) {
        const session = sessions[next++];
        const response = await fetch(`${baseUrl}/api/v1/widget/request-human`, {
          method: "POST",
          headers: { authorization: `Bearer ${session.jwt}`, "content-type": "application/json", origin: ORIGIN },
          body: JSON.stringify({ reason: "Where is my parcel?" }),
        });
        await response.arrayBuffer();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      }
    }),
  );
  return { wallMs: performance.now() - started, statuses: Object.fromEntries(statuses) };
}

async function main() {
  const database = await createBenchDatabase(databaseAdminUrl);
  const dataDir = await mkdtemp(join(tmpdir(), "frontdesk-bench-alerts-"));
  const sink = await startMailSink();
  let service = null;
  try {
    const env = {
      PATH: process.env.PATH ?? "",
      FRONTDESK_DATABASE_URL: database.url,
      FRONTDESK_REDIS_URL: redisUrl,
      FRONTDESK_REDIS_PREFIX: `bench-alerts-${randomBytes(4).toString("hex")}:`,
      FRONTDESK_DATA_DIR: dataDir,
      FRONTDESK_LOG_LEVEL: "warn",
      FRONTDESK_EMBEDDINGS_PROVIDER: "hashing",
      FRONTDESK_JWT_SECRET: randomBytes(32).toString("hex"),
      FRONTDESK_RATE_LIMIT_PROFILE: "high",
      FRONTDESK_RATE_LIMIT_INIT_PER_MINUTE: "1000000",
      FRONTDESK_RATE_LIMIT_INIT_PER_HOUR_PER_IP: "0",
      FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "1000000",
      FRONTDESK_SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
      FRONTDESK_MAIL_FROM: "Bench <support@bench.test>",
      ...(settings.mailConcurrency ? { FRONTDESK_MAIL_CONCURRENCY: settings.mailConcurrency } : {}),
    };
    const workspace = await runAdmin(root, env, ["workspace", "create", "--name", "Alerts"]);
    const agent = await runAdmin(root, env, ["agent", "create", "--workspace", workspace.id, "--name", "Bench", "--origin", ORIGIN]);
    const token = await runAdmin(root, env, ["token", "create", "--workspace", workspace.id, "--name", "bench"]);
    for (let index = 0; index < settings.operators; index += 1) {
      await runAdmin(root, env, ["operator", "create", "--workspace", workspace.id, "--email", `operator${index}@bench.test`, "--name", `Operator ${index}`]);
    }
    service = await startService({ root, env });
    const sources = sourcesClient(service.baseUrl, token.token);
    const pushed = await Promise.all(FACTS.map((content) => sources.push({ agent_id: agent.id, kind: "text", content })));
    for (const source of pushed) {
      for (let waited = 0; (await sources.get(source.id)).status !== "indexed"; waited += 1) {
        if (waited > 600) throw new BenchFailure(`source ${source.id} was not indexed within a minute`);
        await sleep(100);
      }
    }
    const questions = { index: 0, next() { return QUESTIONS[this.index++ % QUESTIONS.length]; } };
    const ask = { baseUrl: service.baseUrl, agentId: agent.id, visitors: settings.visitors, questions, ask: askSync };
    log(`warm-up ${settings.warmupMs / 1000} s`);
    await runVisitors({ ...ask, durationMs: settings.warmupMs });

    log(`before: ${settings.visitors} visitors for ${settings.durationMs / 1000} s`);
    const before = await runVisitors({ ...ask, durationMs: settings.durationMs });

    log(`starting ${settings.alerts} sessions for the alerts`);
    const alertSessions = [];
    for (let index = 0; index < settings.alerts; index += 50) {
      alertSessions.push(...(await Promise.all(Array.from({ length: Math.min(50, settings.alerts - index) }, () => startVisitor(service.baseUrl, agent.id)))));
    }
    const mailsBefore = sink.arrivals.length;
    const expectedMails = settings.alerts * settings.operators;
    log(`during: ${settings.alerts} requests for a person (${expectedMails} mails) while the visitors ask`);
    const burstStart = performance.now();
    const [during, burst] = await Promise.all([runVisitors({ ...ask, durationMs: settings.durationMs }), requestHumans(service.baseUrl, alertSessions, settings.alertConcurrency)]);
    const deadline = performance.now() + 300_000;
    while (sink.arrivals.length - mailsBefore < expectedMails && performance.now() < deadline) await sleep(200);
    const mailed = sink.arrivals.length - mailsBefore;
    const lastMailMs = mailed > 0 ? sink.arrivals[sink.arrivals.length - 1] - burstStart : null;
    const mailsDuringPhase = sink.arrivals.filter((at) => at >= burstStart && at <= burstStart + during.wallMs).length;

    // The phase split in two: while the 1,000 requests for a person were being answered (the requests
    // themselves compete with /messages), then while only their alerts were being mailed.
    const requestsEnd = burstStart + burst.wallMs;
    const result = {
      date: new Date().toISOString(),
      machine: { cpus: cpus().length, model: cpus()[0]?.model, loadavg: loadavg() },
      settings,
      before: summarise(before.results),
      during: summarise(during.results),
      duringRequests: summarise(during.results.filter((request) => request.sentAt < requestsEnd)),
      duringMailing: summarise(during.results.filter((request) => request.sentAt >= requestsEnd)),
      alerts: { requests: settings.alerts, wallMs: Math.round(burst.wallMs), statuses: burst.statuses, mailsExpected: expectedMails, mailsReceived: mailed, mailsDuringPhase, lastMailAfterMs: lastMailMs === null ? null : Math.round(lastMailMs) },
    };
    console.log("\n| phase | /messages requests | failed | p50 ms | p99 ms |\n|---|---|---|---|---|");
    for (const phase of ["before", "during", "duringRequests", "duringMailing"]) console.log(`| ${phase} | ${result[phase].requests} | ${result[phase].failed} | ${result[phase].p50Ms} | ${result[phase].p99Ms} |`);
    console.log(
      `\n${settings.alerts} requests for a person in ${result.alerts.wallMs} ms (${JSON.stringify(burst.statuses)}); ${mailed}/${expectedMails} mails received, ` +
        `${mailsDuringPhase} during the measured phase, the last ${result.alerts.lastMailAfterMs} ms after the burst began`,
    );
    const resultsDir = join(repositoryRoot, "bench", "results");
    await mkdir(resultsDir, { recursive: true });
    const file = join(resultsDir, `alerts-${result.date.replace(/[:.]/g, "").slice(0, 17)}Z.json`);
    await writeFile(file, `${JSON.stringify(result, null, 2)}\n`);
    log(`wrote ${file}`);
    if (mailed < expectedMails) throw new BenchFailure(`only ${mailed} of ${expectedMails} alert mails arrived within 5 minutes`);
  } finally {
    await service?.stop();
    await sink.close();
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error instanceof BenchFailure ? `bench failed: ${error.message}` : error);
  process.exit(1);
});
