#!/usr/bin/env node
// POST /init against its store's own ceiling: `npm run bench:init-ratio` (see docs/benchmarks.md).
//
// Same set-up as bench/widget.mjs (a fresh Postgres database, `node bin/frontdesk serve` with Redis
// and every widget rate limit out of the way, a workspace and an agent seeded through the admin CLI,
// CPU read from /proc), then, one after another on the same database:
//
//   pgbench, no counter    what Postgres itself does for the rows one init writes: the visitor upsert
//                          (with its latest-conversation lookup) and the conversation insert, the two
//                          statements init sent before issue 15, one init per pgbench transaction
//   pgbench, counter       the same with the monthly counter upsert in the conversation's statement
//                          (init's statement before issue 15): the one-row lock ceiling
//   service                POST /api/v1/widget/init through wrk (bench/widget-load.lua, a new anon_id
//                          per request: a new visitor and a new counted conversation each time)
//
// and prints the three rates and the ratio service / (pgbench, no counter). Each pgbench client
// upserts its own new visitors; the workspace has a quota (1,000,000,000 conversations a month), so
// the service checks it. Results also go to bench/results/init-ratio-<date>.json.
//
// Environment (all optional):
//   BENCH_DURATION=20s        each measured run             BENCH_CONNECTIONS=64  wrk connections = pgbench clients
//   BENCH_WARMUP=5s           unmeasured run before each    BENCH_ROUNDS=1        the three runs, repeated (medians)
//   BENCH_POOL_SIZE=20        server Postgres pool          BENCH_PGBENCH_THREADS=2
//   BENCH_CPU_PROF=1          --cpu-prof the server (bench/results/profiles)
//   BENCH_RUNS=pgbench-no-counter,pgbench-counter,service   a subset, for trials (the ratio needs the first and the last)
//   BENCH_SERVER_ENV='{"FRONTDESK_…":"…"}'   extra server environment (trials)
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres   (creates and drops a database)
//   BENCH_REDIS_URL=redis://127.0.0.1:6379
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { cpuBetween, processClassifier, snapshotCpu } from "./widget-cpu.mjs";
import * as service from "./widget-service.mjs";
import { BenchFailure, log, ORIGIN, run } from "./widget-service.mjs";
import { runWrk, summarize, wrkVersion } from "./widget-wrk.mjs";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const resultsDir = join(root, "bench", "results");

const settings = {
  duration: process.env.BENCH_DURATION ?? "20s",
  warmup: process.env.BENCH_WARMUP ?? "5s",
  connections: Number(process.env.BENCH_CONNECTIONS ?? 64),
  rounds: Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1)),
  poolSize: Number(process.env.BENCH_POOL_SIZE ?? 20),
  pgbenchThreads: Number(process.env.BENCH_PGBENCH_THREADS ?? 2),
  cpuProfile: process.env.BENCH_CPU_PROF === "1",
  runs: (process.env.BENCH_RUNS ?? "pgbench-no-counter,pgbench-counter,service").split(",").map((name) => name.trim()).filter(Boolean),
  serverEnvironment: JSON.parse(process.env.BENCH_SERVER_ENV ?? "{}"),
  adminDatabaseUrl: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
  redisUrl: process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379",
};

const QUOTA = 1_000_000_000;
/** The ratio issue 15 asks of the service: at least this share of pgbench without the counter. */
const TARGET_RATIO = 0.6;

const seconds = (duration) => {
  const match = /^(\d+)(s|m)?$/.exec(duration);
  if (!match) throw new BenchFailure(`not a duration: ${duration} (use e.g. 20s or 1m)`);
  return Number(match[1]) * (match[2] === "m" ? 60 : 1);
};

// Ids as the service makes them: a prefix, the time first (rows land at the end of the index), random after.
const NEW_ID = (prefix) => `'${prefix}_' || to_char(clock_timestamp(), 'YYYYMMDDHH24MISSUS') || substr(md5(random()::text), 1, 14)`;

// The visitor upsert init sends (session-repository.ts before issue 15), one new anon_id per transaction.
const VISITOR_UPSERT = `\\set n random(1, 1000000000000)
WITH visitor AS (
  INSERT INTO visitors (id, agent_id, anon_id) VALUES (${NEW_ID("vis")}, :agent, 'pgb-' || :client_id || '-' || :n)
  ON CONFLICT (agent_id, anon_id) DO UPDATE SET last_seen_at = now()
  RETURNING id, anon_id
)
SELECT visitor.id AS visitor_id, coalesce(latest.id, '') AS latest_id
FROM visitor LEFT JOIN LATERAL (
  SELECT c.id, c.last_activity_at FROM conversations c WHERE c.visitor_id = visitor.id ORDER BY c.created_at DESC LIMIT 1
) latest ON true
\\gset
`;

const PGBENCH_SCRIPTS = {
  "pgbench-no-counter": `${VISITOR_UPSERT}INSERT INTO conversations (id, workspace_id, agent_id, visitor_id, page_url, last_page_url, user_agent)
VALUES (${NEW_ID("cnv")}, :workspace, :agent, :visitor_id, 'https://bench.test/', 'https://bench.test/', NULL) RETURNING id;
`,
  // init's counted insert before issue 15: the counter row locked by the upsert until the commit.
  "pgbench-counter": `${VISITOR_UPSERT}WITH counted AS (
  INSERT INTO conversation_counters (workspace_id, month, count) VALUES (:workspace, :month::date, 1)
  ON CONFLICT (workspace_id, month) DO UPDATE SET count = conversation_counters.count + 1
    WHERE conversation_counters.count < :quota::integer
  RETURNING 1
)
INSERT INTO conversations (id, workspace_id, agent_id, visitor_id, page_url, last_page_url, user_agent)
SELECT ${NEW_ID("cnv")}, :workspace, :agent, :visitor_id, 'https://bench.test/', 'https://bench.test/', NULL FROM counted
RETURNING id;
`,
};

async function runPgbench({ name, scriptFile, databaseUrl, duration, variables }) {
  const args = ["-n", "-M", "prepared", "-c", String(settings.connections), "-j", String(settings.pgbenchThreads), "-T", String(seconds(duration))];
  for (const [key, value] of Object.entries(variables)) args.push("-D", `${key}=${value}`);
  args.push("-f", scriptFile, databaseUrl);
  const { stdout } = await run("pgbench", args, { maxBuffer: 16 * 1024 * 1024 }).catch((error) => {
    throw new BenchFailure(`pgbench (${name}) failed: ${error.stderr || error.message}`);
  });
  const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout);
  const latency = /latency average = ([\d.]+) ms/.exec(stdout);
  const failed = /number of failed transactions: (\d+)/.exec(stdout);
  const processed = /number of transactions actually processed: (\d+)/.exec(stdout);
  if (!tps) throw new BenchFailure(`pgbench (${name}) printed no tps:\n${stdout}`);
  return {
    perSecond: Math.round(Number(tps[1])),
    transactions: processed ? Number(processed[1]) : null,
    failed: failed ? Number(failed[1]) : 0,
    latencyAverageMs: latency ? Number(latency[1]) : null,
  };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : Math.round((sorted[middle - 1] + sorted[middle]) / 2);
};

async function main() {
  await service.ensureBuilt(root);
  const wrk = await wrkVersion();
  const pgbenchVersion = (await run("pgbench", ["--version"]).catch(() => ({ stdout: "" }))).stdout.trim();
  if (!pgbenchVersion) throw new BenchFailure("pgbench is not installed (Debian: apt-get install postgresql-client)");
  const startedAt = new Date();
  const cleanups = service.cleanUpRegistry();

  try {
    const { dataDir, database } = await service.freshStore(settings.adminDatabaseUrl, cleanups);

    const port = await service.freePort();
    const environment = {
      ...service.serverEnvironment({ databaseUrl: database.url, poolSize: settings.poolSize, redisUrl: settings.redisUrl, dataDir, port }),
      ...settings.serverEnvironment,
    };
    const profileDir = settings.cpuProfile ? join(resultsDir, "profiles") : null;
    if (profileDir) await mkdir(profileDir, { recursive: true });
    const server = await service.startServer({ root, environment, port, profileDir });
    cleanups.add(() => server.stop());
    log(`server on ${server.baseUrl}`);

    const workspace = await service.adminCli(root, environment, ["workspace", "create", "--name", "Bench", "--conversation-quota", String(QUOTA)]);
    const agent = await service.adminCli(root, environment, ["agent", "create", "--workspace", workspace.id, "--name", "Bench", "--origin", ORIGIN]);
    const sessionFile = join(dataDir, "sessions.txt");
    await writeFile(sessionFile, [`agent_id ${agent.id}`, `run ${randomBytes(3).toString("hex")}`, ""].join("\n"));
    for (const [name, script] of Object.entries(PGBENCH_SCRIPTS)) await writeFile(join(dataDir, `${name}.sql`), script);
    const now = new Date();
    const variables = {
      agent: agent.id,
      workspace: workspace.id,
      month: `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, "0")}-01`,
      quota: String(QUOTA),
    };

    const machine = await service.machineInfo(database.url, settings.redisUrl);
    const classify = processClassifier({ serverPid: server.pid, databaseName: database.name, port });
    const wrkOptions = { luaScript: join(root, "bench", "widget-load.lua"), baseUrl: server.baseUrl, route: "init", sessionFile, threads: 1, connections: settings.connections };
    const runs = { "pgbench-no-counter": [], "pgbench-counter": [], service: [] };

    const measure = async (name, work) => {
      await service.checkpoint(database.url);
      const load = loadavg()[0];
      const before = await snapshotCpu();
      const result = await work();
      const cpu = cpuBetween(before, await snapshotCpu(), classify, server.pid);
      Object.assign(result, { loadAverageBefore: Math.round(load * 100) / 100, cpu });
      // The server's own CPU per init: a figure other processes on the machine barely move.
      if (cpu && result.requests) result.serverCpuMicrosecondsPerRequest = Math.round((cpu.serverPercentOfOneCore / 100) * result.seconds * 1e6 / result.requests);
      log(`${name}: ${result.perSecond}/s; CPU ${JSON.stringify(cpu)}`);
      runs[name].push(result);
    };

    for (let round = 1; round <= settings.rounds; round += 1) {
      log(`round ${round} of ${settings.rounds}`);
      for (const name of Object.keys(PGBENCH_SCRIPTS).filter((candidate) => settings.runs.includes(candidate))) {
        const options = { name, scriptFile: join(dataDir, `${name}.sql`), databaseUrl: database.url, variables };
        if (seconds(settings.warmup) > 0) await runPgbench({ ...options, duration: settings.warmup });
        await measure(name, () => runPgbench({ ...options, duration: settings.duration }));
      }
      if (!settings.runs.includes("service")) continue;
      if (seconds(settings.warmup) > 0) await runWrk({ ...wrkOptions, duration: settings.warmup });
      await measure("service", async () => {
        const before = await service.countRows(database.url);
        const raw = await runWrk({ ...wrkOptions, duration: settings.duration });
        const conversations = (await service.countRows(database.url)).conversations - before.conversations;
        const summary = summarize("init", { method: "POST", path: "/api/v1/widget/init", note: "", target: null }, raw);
        if (summary.errorRate > 0.01) throw new BenchFailure(`init failed on ${(summary.errorRate * 100).toFixed(2)}% of requests\n${server.output()}`);
        // Every answered init started a conversation (wrk may stop with a few requests unanswered, which may still be written).
        if (conversations < summary.requests - summary.non2xx) {
          throw new BenchFailure(`${summary.requests - summary.non2xx} inits answered but ${conversations} conversations written`);
        }
        return {
          perSecond: summary.requestsPerSecond,
          requests: summary.requests,
          seconds: summary.seconds,
          non2xx: summary.non2xx,
          conversationsWritten: conversations,
          latencyMs: summary.latencyMs,
        };
      });
    }

    const rates = Object.fromEntries(Object.entries(runs).map(([name, results]) => [name, results.length > 0 ? median(results.map((result) => result.perSecond)) : NaN]));
    const ratio = rates.service / rates["pgbench-no-counter"];
    const counterRatio = rates["pgbench-counter"] / rates["pgbench-no-counter"];
    const percent = (value) => `${(value * 100).toFixed(1)} %`;
    const cpuOf = (name) => {
      const cpu = runs[name].at(-1)?.cpu;
      // pgbench's backends exit with it, before the closing snapshot: the machine's busy share is what tells.
      return cpu ? `machine ${cpu.machineBusyPercent} % busy, server ${cpu.serverPercentOfOneCore} % and others ${cpu.othersPercentOfOneCore} % of a core` : "-";
    };
    process.stdout.write(
      `\nPOST /init against Postgres, ${settings.connections} connections, ${settings.duration} per run, ${settings.rounds} round(s) (medians)\n` +
        `  pgbench, visitor upsert + conversation insert (no counter): ${rates["pgbench-no-counter"].toLocaleString("en")}/s   (${cpuOf("pgbench-no-counter")})\n` +
        `  pgbench, the same with the counter upsert (before issue 15): ${rates["pgbench-counter"].toLocaleString("en")}/s   (${cpuOf("pgbench-counter")}) = ${percent(counterRatio)} of no counter\n` +
        `  service, POST /init through wrk:                            ${rates.service.toLocaleString("en")}/s   (${cpuOf("service")}), p99 ${runs.service.at(-1)?.latencyMs.p99} ms, server CPU ${runs.service.at(-1)?.serverCpuMicrosecondsPerRequest} µs per init\n` +
        `  ratio service / pgbench without counter: ${percent(ratio)} (target ≥ ${percent(TARGET_RATIO)}: ${ratio >= TARGET_RATIO ? "met" : "NOT met"})\n`,
    );

    await mkdir(resultsDir, { recursive: true });
    const stamp = startedAt.toISOString().replace(/:/g, "").replace(/\.\d+Z$/, "Z");
    const resultsFile = join(resultsDir, `init-ratio-${stamp}.json`);
    const revision = await service.sourceRevision(root);
    const report = { startedAt: startedAt.toISOString(), command: "npm run bench:init-ratio", revision, settings: { ...settings, wrk, pgbench: pgbenchVersion }, machine, rates, ratio, counterRatio, runs };
    await writeFile(resultsFile, `${JSON.stringify(report, null, 2)}\n`);
    process.stdout.write(`  results: ${resultsFile}\n`);
  } finally {
    await cleanups.cleanUp();
  }
}

main().catch((error) => {
  process.stderr.write(`\n[bench] FAILED: ${error instanceof BenchFailure ? error.message : error.stack}\n`);
  process.exitCode = 1;
});
