#!/usr/bin/env node
// Answers benchmark: `node bench/answers.mjs` (see docs/benchmarks.md, section "Answers").
//
// Gives one agent BENCH_CHUNKS (10,000) chunks of synthetic support articles, sized with the
// service's own chunker and either pushed as text sources through the Sources API (BENCH_SEED=api)
// or written straight into the store with the service's own modules (BENCH_SEED=direct, see
// answers-direct-seed.mjs), then measures on each store asked for:
//   (a) with an OpenAI-compatible model server on loopback that answers at once (in this process,
//       so it shares this clock): the time the service adds before the model is asked, i.e. the
//       model server's arrival time of the chat request minus the client's send time of POST
//       /messages/stream (retrieval and prompt), and the client's time to the first token frame;
//   (b) with the default extractive generator: POST /messages end to end;
// each with 1 visitor asking BENCH_SEQUENTIAL questions one after another, and with BENCH_VISITORS
// visitors asking in loops for BENCH_DURATION_SECONDS. Every visitor calls init once and asks
// distinct questions in one conversation (so the retrieval query carries its two previous
// questions, as in a real chat). Prints a table and writes bench/results/answers-<date>.json.
// BENCH_CHUNKS may list sizes (10000,100000,1000000): each is seeded and measured in turn, and one
// more table gives each figure with a column per size, so that its growth shows in one run.
//
// Environment (all optional):
//   BENCH_STORES=postgres,pglite    BENCH_CHUNKS=10000 (or a list)    BENCH_ARTICLES=chunks/8 (about)
//   BENCH_SEED=                     direct | api; default api up to 10,000 chunks, direct above
//   BENCH_SEQUENTIAL=200            BENCH_VISITORS=32     BENCH_DURATION_SECONDS=20   BENCH_WARMUP=20
//   BENCH_MODES=model,extractive    BENCH_POOL_SIZE=      (FRONTDESK_DATABASE_POOL_SIZE; default the service's)
//                                   burst (not by default): BENCH_BURST_STREAMS=500 visitors streaming answers back to
//                                   back for BENCH_BURST_SECONDS=15 from a model that sends BENCH_BURST_PIECES=40 pieces
//                                   one every BENCH_BURST_PIECE_MS=25, while another process times GET /healthz every
//                                   BENCH_HEALTHZ_INTERVAL_MS=20 (and as long before the burst, the service idle)
//   BENCH_ANALYZE=auto              ANALYZE after seeding: auto = on Postgres only (what autovacuum does
//                                   there within a minute of the bulk insert; the machine's own Postgres
//                                   may run with autovacuum off), not on PGlite (which has no autovacuum);
//                                   1 = on both, 0 = on neither
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres  (an admin connection, for CREATE DATABASE)
//   BENCH_KEEP_DATABASE=1           keep the Postgres database or the PGlite data dir (to EXPLAIN ANALYZE the retrieval SQL)
//   BENCH_FRONTDESK_ROOT=<checkout> the service to measure (default: this repository)
//   BENCH_INDEX_WAIT_SECONDS=180   after the warm-up, unmeasured questions until the in-memory lexical index is built
//                                   (at most this long; not past 200,000 chunks, which the default budget does not hold)
//   BENCH_CPU_PROF=1                profile the server during the measured runs (bench/results/profiles/answers-…)
//   BENCH_SERVICE_NODE_OPTIONS=     node options for the service only, space-separated (e.g. --max-semi-space-size=32)
//   BENCH_ENFORCE_TARGETS=1         exit 1 when a target is missed
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { questionStream } from "./answers-corpus.mjs";
import { runBurst } from "./answers-burst.mjs";
import { askStreamed, askSync, runVisitors } from "./answers-load.mjs";
import { startModelServer } from "./answers-model-server.mjs";
import { burstTable, judgeTargets, phasesTable, sizesTable, summarisePhase, verdictsTable } from "./answers-report.mjs";
import { buildCorpus, createAgent, seed } from "./answers-seed.mjs";
import { seedDirect } from "./answers-direct-seed.mjs";
import {
  BenchFailure,
  backendCpuBetween,
  createBenchDatabase,
  inspectStore,
  log,
  readProcessStatus,
  machineCpuTicks,
  postgresBackendCpuSeconds,
  processCpuSeconds,
  startService,
} from "./answers-service.mjs";

const repositoryRoot = dirname(dirname(fileURLToPath(import.meta.url)));
const resultsDir = join(repositoryRoot, "bench", "results");
const execFileAsync = promisify(execFile);
const list = (value) => value.split(",").map((item) => item.trim()).filter(Boolean);

const settings = {
  stores: list(process.env.BENCH_STORES ?? "postgres,pglite"),
  modes: list(process.env.BENCH_MODES ?? "model,extractive"),
  sizes: list(process.env.BENCH_CHUNKS ?? "10000").map(Number),
  articles: process.env.BENCH_ARTICLES ? Number(process.env.BENCH_ARTICLES) : null,
  seed: process.env.BENCH_SEED ?? null,
  sequential: Number(process.env.BENCH_SEQUENTIAL ?? 200),
  visitors: Number(process.env.BENCH_VISITORS ?? 32),
  durationSeconds: Number(process.env.BENCH_DURATION_SECONDS ?? 20),
  warmup: Number(process.env.BENCH_WARMUP ?? 20),
  burst: {
    streams: Number(process.env.BENCH_BURST_STREAMS ?? 500),
    seconds: Number(process.env.BENCH_BURST_SECONDS ?? 15),
    pieces: Number(process.env.BENCH_BURST_PIECES ?? 40),
    pieceMs: Number(process.env.BENCH_BURST_PIECE_MS ?? 25),
    healthzIntervalMs: Number(process.env.BENCH_HEALTHZ_INTERVAL_MS ?? 20),
  },
  poolSize: process.env.BENCH_POOL_SIZE ? Number(process.env.BENCH_POOL_SIZE) : null,
  analyze: process.env.BENCH_ANALYZE ?? "auto",
  adminDatabaseUrl: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
  keepDatabase: process.env.BENCH_KEEP_DATABASE === "1",
  root: process.env.BENCH_FRONTDESK_ROOT ?? repositoryRoot,
  cpuProfile: process.env.BENCH_CPU_PROF === "1",
  // Node options for the service only (e.g. "--max-semi-space-size=32"), space-separated.
  serviceNodeOptions: (process.env.BENCH_SERVICE_NODE_OPTIONS ?? "").split(" ").filter(Boolean),
  enforceTargets: process.env.BENCH_ENFORCE_TARGETS === "1",
  indexWaitSeconds: Number(process.env.BENCH_INDEX_WAIT_SECONDS ?? 180),
};

const LIMIT_OUT_OF_THE_WAY = "100000000";

/** The service's environment: this process's minus any FRONTDESK_*, plus the run's. */
function serviceEnvironment(overrides) {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("FRONTDESK_")));
  return {
    ...inherited,
    FRONTDESK_EMBEDDINGS_PROVIDER: "hashing",
    FRONTDESK_LOG_LEVEL: "warn",
    FRONTDESK_RATE_LIMIT_PROFILE: "high",
    FRONTDESK_RATE_LIMIT_INIT_PER_MINUTE: LIMIT_OUT_OF_THE_WAY,
    FRONTDESK_RATE_LIMIT_INIT_PER_HOUR_PER_IP: "0",
    FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: LIMIT_OUT_OF_THE_WAY,
    FRONTDESK_RATE_LIMIT_SOURCES_PER_MINUTE: LIMIT_OUT_OF_THE_WAY,
    // The agent's vectors in the HNSW index as they are stored (its 10,000 chunks are past the default
    // threshold anyway): no background indexing runs while the answers are timed.
    FRONTDESK_VECTOR_INDEX_MIN_CHUNKS: "0",
    ...(settings.poolSize ? { FRONTDESK_DATABASE_POOL_SIZE: String(settings.poolSize) } : {}),
    ...overrides,
  };
}

/** Runs one phase, with the CPU the server, this process and the machine used meanwhile. */
async function measure(servicePid, databaseName, run) {
  const server = processCpuSeconds(servicePid);
  const postgres = databaseName ? postgresBackendCpuSeconds(databaseName) : null;
  const own = process.cpuUsage();
  const machine = machineCpuTicks();
  const outcome = await run();
  const seconds = outcome.wallMs / 1000;
  const ownUsed = process.cpuUsage(own);
  const machineNow = machineCpuTicks();
  const postgresSeconds = postgres ? backendCpuBetween(postgres, postgresBackendCpuSeconds(databaseName)) : null;
  return {
    ...outcome,
    cpu: {
      serverPercent: Math.round(((processCpuSeconds(servicePid) - server) / seconds) * 100),
      benchPercent: Math.round(((ownUsed.user + ownUsed.system) / 1e6 / seconds) * 100),
      postgresPercent: postgresSeconds === null ? null : Math.round((postgresSeconds / seconds) * 100),
      machineBusyPercent: Math.round(((machineNow.busy - machine.busy) / (machineNow.total - machine.total)) * 100 * cpus().length),
    },
  };
}

/** Adds the model server's arrival time of each streamed question: `addedMs` = arrival − send. */
function withArrivals(results, modelServer) {
  return results.map((result) => {
    if (result.error !== null || result.question === undefined) return result;
    const arrival = modelServer.arrivalOf(result.question);
    return { ...result, addedMs: arrival ? arrival.arrivedAt - result.sentAt : null, grounded: arrival?.grounded ?? null, systemCharacters: arrival?.systemCharacters ?? null };
  });
}

const modelEnvironment = (server) => ({ FRONTDESK_LLM_PROVIDER: "openai", FRONTDESK_LLM_BASE_URL: server.baseUrl.replace(/\/v1$/, ""), FRONTDESK_LLM_MODEL: "bench", FRONTDESK_LLM_API_KEY: "x" });

/** The burst (see answers-burst.mjs), after 20 unmeasured questions, against a model server of its own whose answers trickle. */
async function runBurstMode({ env, agentId, databaseName, questions, profileDir }) {
  const pacedModel = await startModelServer({ pieceIntervalMs: settings.burst.pieceMs, pieces: settings.burst.pieces });
  const service = await startService({ root: settings.root, env: { ...env, ...modelEnvironment(pacedModel) }, cpuProfileDir: profileDir, nodeOptions: settings.serviceNodeOptions });
  let burst;
  try {
    await runVisitors({ baseUrl: service.baseUrl, agentId, questions, ask: askStreamed, visitors: 1, questionsPerVisitor: settings.warmup });
    burst = await runBurst({
      baseUrl: service.baseUrl,
      agentId,
      questions,
      streams: settings.burst.streams,
      durationMs: settings.burst.seconds * 1000,
      healthzIntervalMs: settings.burst.healthzIntervalMs,
      measure: (run) => measure(service.pid, databaseName, run),
    });
  } finally {
    await service.stop();
    await pacedModel.close();
  }
  log(
    `burst: ${burst.requests} streams by ${burst.visitors} visitors, open at once p50 ${burst.openStreams.p50} (max ${burst.openStreams.max}), ${burst.errors} errors; ` +
      `/healthz p50 ${burst.healthz.p50} p99 ${burst.healthz.p99} ms (${burst.healthz.samples} samples; idle p50 ${burst.healthzIdle.p50} p99 ${burst.healthzIdle.p99} ms); /livez p50 ${burst.livez.p50} p99 ${burst.livez.p99} ms; the sampler's own timer late p50 ${burst.samplerLate.p50} p99 ${burst.samplerLate.p99} ms (idle p99 ${burst.samplerLateIdle.p99}), server CPU ${burst.cpu.serverPercent}%`,
  );
  const serviceLogLines = service.logLines();
  if (serviceLogLines > 0) log(`the burst service logged ${serviceLogLines} lines at warn or above; the last: ${service.output().slice(-600)}`);
  return { phases: { burst }, serviceLogLines };
}

/** The service's resident memory now and at its peak (MiB), or null when /proc cannot tell. */
function serviceMemory(pid) {
  try {
    const status = readProcessStatus(pid);
    return { rssMiB: Math.round(status.rssMiB), peakRssMiB: Math.round(status.peakMiB) };
  } catch {
    return null;
  }
}

/** A counter of the service's /metrics (summed over its labels), or null when it is not there. */
async function serviceCounter(baseUrl, name) {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const values = [...text.matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+]+)$`, "gm"))].map((match) => Number(match[1]));
  return values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0);
}

/**
 * After the warm-up, more unmeasured questions until the service's in-memory lexical index of the
 * agent is built (the steady state; until then questions are scored in SQL while the build takes
 * CPU), for at most BENCH_INDEX_WAIT_SECONDS: an agent past the budget never gets one. Returns the
 * seconds waited and whether the index was built.
 */
async function waitForLexicalIndex(base, waitSeconds) {
  const started = performance.now();
  for (;;) {
    const builds = await serviceCounter(base.baseUrl, "frontdesk_lexical_index_builds_total");
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    if (builds !== null && builds > 0) return { seconds, built: true };
    if (seconds >= waitSeconds) return { seconds, built: false };
    await runVisitors({ ...base, visitors: 1, questionsPerVisitor: 1 });
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function runMode({ mode, env, agentId, databaseName, modelServer, questions, profileDir, indexWaitSeconds = 0 }) {
  if (mode === "burst") return runBurstMode({ env, agentId, databaseName, questions, profileDir });
  const llm = mode === "model" ? modelEnvironment(modelServer) : { FRONTDESK_LLM_PROVIDER: "extractive" };
  const service = await startService({ root: settings.root, env: { ...env, ...llm }, cpuProfileDir: profileDir, nodeOptions: settings.serviceNodeOptions });
  const ask = mode === "model" ? askStreamed : askSync;
  const base = { baseUrl: service.baseUrl, agentId, questions, ask };
  const phases = {};
  let memory = null;
  let lexicalIndex = null;
  const record = (name, visitors, outcome) => {
    const results = mode === "model" ? withArrivals(outcome.results, modelServer) : outcome.results;
    phases[name] = { visitors, ...summarisePhase({ ...outcome, results }), raw: results.map(({ question: _question, ...rest }) => rest) };
    const phase = phases[name];
    log(
      `${mode} ${name}: ${phase.requests} requests, ${phase.errors} errors, ` +
        (phase.addedMs ? `added p50 ${phase.addedMs.p50} p99 ${phase.addedMs.p99} ms, ` : "") +
        `end to end p50 ${phase.totalMs?.p50} p99 ${phase.totalMs?.p99} ms, server CPU ${phase.cpu.serverPercent}%`,
    );
  };
  try {
    record("warmup", 1, await measure(service.pid, databaseName, () => runVisitors({ ...base, visitors: 1, questionsPerVisitor: settings.warmup })));
    lexicalIndex = await waitForLexicalIndex(base, indexWaitSeconds);
    log(`${mode}: in-memory lexical index ${lexicalIndex.built ? `built ${lexicalIndex.seconds} s after the warm-up` : `not built within ${lexicalIndex.seconds} s (past the budget): the SQL path answers`}`);
    record("sequential", 1, await measure(service.pid, databaseName, () => runVisitors({ ...base, visitors: 1, questionsPerVisitor: settings.sequential })));
    record(
      "concurrent",
      settings.visitors,
      await measure(service.pid, databaseName, () => runVisitors({ ...base, visitors: settings.visitors, durationMs: settings.durationSeconds * 1000 })),
    );
    memory = serviceMemory(service.pid);
  } finally {
    await service.stop();
  }
  const serviceLogLines = service.logLines();
  if (serviceLogLines > 0) log(`the ${mode} service logged ${serviceLogLines} lines at warn or above; the last: ${service.output().slice(-600)}`);
  return { phases, serviceLogLines, memory, lexicalIndex };
}

async function runStore(store, corpus, modelServer, questions, stamp) {
  const dataDir = await mkdtemp(join(tmpdir(), "frontdesk-answers-"));
  const database = store === "postgres" ? await createBenchDatabase(settings.adminDatabaseUrl) : null;
  const env = serviceEnvironment({ FRONTDESK_DATA_DIR: dataDir, ...(database ? { FRONTDESK_DATABASE_URL: database.url } : {}) });
  const outcome = { store, database: database?.name ?? null, modes: {} };
  try {
    const seedPath = settings.seed ?? (corpus.chunks > 10_000 ? "direct" : "api");
    log(`${store}: seeding ${corpus.documents.length} articles (${seedPath})`);
    const seeder = await startService({ root: settings.root, env: { ...env, FRONTDESK_WORKER_CONCURRENCY: "4" } });
    let seeded;
    try {
      seeded = seedPath === "direct" ? await createAgent({ root: settings.root, env }) : await seed({ root: settings.root, service: seeder, env, corpus });
    } finally {
      await seeder.stop();
    }
    if (seedPath === "direct") {
      const direct = await seedDirect({ root: settings.root, env, workspaceId: seeded.workspaceId, agentId: seeded.agentId, corpus });
      seeded = { ...seeded, path: "direct", pushSeconds: null, indexSeconds: direct.seconds, rebuildIndexSeconds: direct.rebuildSeconds };
    } else seeded = { ...seeded, path: "api" };
    outcome.seed = seeded;
    const analyze = settings.analyze === "1" || (settings.analyze === "auto" && store === "postgres");
    outcome.analyzed = analyze;
    outcome.storeContents = await inspectStore(database ? { url: database.url } : { dataDir }, { analyze });
    log(
      `${store}: ${outcome.storeContents.chunks} chunks in ${outcome.storeContents.documents} documents (${seeded.pushSeconds === null ? "seeded directly" : `pushed in ${seeded.pushSeconds}s`}, ` +
        `indexed in ${seeded.indexSeconds}s)${analyze ? ", analyzed" : ", not analyzed"}`,
    );

    for (const mode of settings.modes) {
      const profileDir = settings.cpuProfile ? join(resultsDir, "profiles", `answers-${stamp}-${store}-${mode}`) : undefined;
      if (profileDir) await mkdir(profileDir, { recursive: true });
      const { phases, serviceLogLines, memory, lexicalIndex } = await runMode({
        mode,
        env,
        agentId: seeded.agentId,
        databaseName: database?.name,
        modelServer,
        questions,
        profileDir,
        // The default budget (256 MiB) holds about 200,000 chunks' index (docs/benchmarks.md): past it none is built.
        indexWaitSeconds: corpus.chunks <= 200_000 ? settings.indexWaitSeconds : 0,
      });
      outcome.modes[mode] = phases;
      outcome.memory = { ...outcome.memory, [mode]: memory };
      outcome.lexicalIndex = { ...outcome.lexicalIndex, [mode]: lexicalIndex };
      outcome[`${mode}ServiceLogLines`] = serviceLogLines;
    }
    if (database) outcome.storeAfter = await inspectStore({ url: database.url });
  } finally {
    if (database && !settings.keepDatabase) await database.drop();
    if (database && settings.keepDatabase) log(`kept ${database.url}`);
    if (settings.keepDatabase && !database) log(`kept the PGlite data dir ${dataDir}`);
    else await rm(dataDir, { recursive: true, force: true });
  }
  return outcome;
}

/** The commit of the service measured, and whether its packages differ from it (dist is what runs). */
async function serviceRevision() {
  try {
    const { stdout: commit } = await execFileAsync("git", ["rev-parse", "HEAD"], { cwd: settings.root });
    const { stdout: changes } = await execFileAsync("git", ["status", "--porcelain", "--", "packages"], { cwd: settings.root });
    return { commit: commit.trim(), packagesChanged: changes.trim() !== "" };
  } catch {
    return null;
  }
}

async function main() {
  const loadAverageAtStart = loadavg();
  const startedAt = new Date().toISOString();
  const stamp = new Date().toISOString().replace(/[:]/g, "").replace(/\.\d+Z$/, "Z");
  const modelServer = await startModelServer();
  const questions = questionStream(2026);
  const stores = [];
  try {
    for (const size of settings.sizes) {
      const articles = settings.articles ?? Math.max(1, Math.round(size / 8));
      const corpus = await buildCorpus({ root: settings.root, chunks: size, articles });
      for (const store of settings.stores) stores.push({ size, corpus: corpus.stats, ...(await runStore(store, corpus, modelServer, questions, `${stamp}-${size}`)) });
    }
  } finally {
    await modelServer.close();
  }

  const verdicts = judgeTargets(stores);
  const report = {
    startedAt,
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version, loadAverageAtStart, loadAverageAtEnd: loadavg() },
    service: await serviceRevision(),
    settings: { ...settings, adminDatabaseUrl: settings.adminDatabaseUrl.replace(/\/\/[^@]*@/, "//…@") },
    modelServer: { requests: modelServer.requests, malformed: modelServer.malformed },
    stores,
    verdicts,
  };
  await mkdir(resultsDir, { recursive: true });
  const file = join(resultsDir, `answers-${stamp}.json`);
  await writeFile(file, `${JSON.stringify(report, null, 1)}\n`);

  const burst = burstTable(stores);
  process.stdout.write(`\n${phasesTable(stores)}\n\n${burst ? `${burst}\n\n` : ""}${verdictsTable(verdicts)}\n\n${sizesTable(stores)}\n\nwritten to ${file}\n`);
  if (settings.enforceTargets && verdicts.some((verdict) => verdict.met === false)) process.exitCode = 1;
}

main().catch((error) => {
  process.stderr.write(`${error instanceof BenchFailure ? error.message : error.stack}\n`);
  process.exitCode = 1;
});
