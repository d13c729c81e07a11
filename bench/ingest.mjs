#!/usr/bin/env node
// Ingest benchmark: `node bench/ingest.mjs` (see docs/benchmarks.md, section "Ingest").
//
// Serves a BENCH_PAGES-page website on loopback (realistic HTML with navigation, cookie banner and
// footer, robots.txt, one sitemap.xml; a sitemap index past 50,000 pages), starts `frontdesk serve` on a fresh store, seeds it through
// the admin CLI, pushes the sitemap as ONE source and polls it until `indexed`; then pushes
// BENCH_TEXTS distinct text sources one at a time, polling each every 50 ms until `indexed`.
// Repeated for every store × embeddings provider × worker concurrency asked for. Prints pages/s,
// chunks embedded/s, push→indexed time, CPU (server, its Postgres backends, the whole machine), peak
// RSS (VmHWM) and text push p50/p90, and writes everything to bench/results/ingest-<date>.json.
// The `openai` provider talks to a stand-in embeddings server on loopback (ingest-embeddings-server.mjs).
//
// BENCH_PAGES may list sizes (500,10000,100000): every combination runs at each size, on a site of
// that many pages, and one more table puts the sizes side by side (a column per size and store), so
// each figure's growth shows in one run; texts are pushed at each size, files only at the first.
//
// Environment (all optional):
//   BENCH_PAGES=500                 pages of the site, or a list of sizes       BENCH_TEXTS=30        text pushes per run
//   BENCH_SITEMAP_FILE_ENTRIES=50000  pages per sitemap file (the protocol's cap); more pages make a sitemap index
//   BENCH_FILES=10                  PDFs and DOCX files uploaded per run (then the large files); 0 skips them
//   BENCH_LARGE_FILES=text,images   large PDFs indexed one at a time, peak RSS sampled (see ingest-files.mjs); empty for none
//   BENCH_STORES=pglite,postgres    BENCH_PROVIDERS=hashing,openai                BENCH_CONCURRENCY=4,8
//   BENCH_REPEAT=1                  runs per combination; the headline takes each one's fastest run
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres  (an admin connection, for CREATE DATABASE)
//   BENCH_FRONTDESK_ROOT=<checkout> the service to measure (default: this repository)
//   BENCH_CPU_PROF=1                profile the server (bench/results/profiles/ingest-…)
//   BENCH_PROBE_LOCAL=0             skip checking whether the `local` provider can load its model
//   BENCH_SITEMAP_TIMEOUT_SECONDS=900   BENCH_KEEP_DATA=1 (keep the PGlite data dirs)
//   BENCH_VECTOR_INDEX_MIN_CHUNKS=N  the service's FRONTDESK_VECTOR_INDEX_MIN_CHUNKS (10000000: no HNSW insert during the run)
//   BENCH_VECTOR_OWN_INDEX_MIN_CHUNKS=N  the service's FRONTDESK_VECTOR_OWN_INDEX_MIN_CHUNKS (0: every agent in the shared index, as before 0051)
//   BENCH_ENFORCE_TARGETS=1         exit 1 when a target is missed
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { startEmbeddingsServer } from "./ingest-embeddings-server.mjs";
import { measureSitemap, measureTexts, timeline } from "./ingest-measure.mjs";
import { bestRuns, growthTable, judgeTargets, runsTable, steadyRate, verdictsTable } from "./ingest-report.mjs";
import {
  BenchFailure,
  createBenchDatabase,
  log,
  readIndexSummary,
  readMemory,
  runAdmin,
  sampleMemory,
  sourcesClient,
  startService,
} from "./ingest-service.mjs";
import { startSite } from "./ingest-site.mjs";
import { measureFiles } from "./ingest-files.mjs";

const repositoryRoot = dirname(dirname(fileURLToPath(import.meta.url)));
const resultsDir = join(repositoryRoot, "bench", "results");
const list = (value) => value.split(",").map((item) => item.trim()).filter(Boolean);

const settings = {
  pages: list(process.env.BENCH_PAGES ?? "500").map(Number),
  sitemapFileEntries: Number(process.env.BENCH_SITEMAP_FILE_ENTRIES ?? 50_000),
  texts: Number(process.env.BENCH_TEXTS ?? 30),
  files: Number(process.env.BENCH_FILES ?? 10),
  largeFiles: list(process.env.BENCH_LARGE_FILES ?? "text,images"),
  stores: list(process.env.BENCH_STORES ?? "pglite,postgres"),
  providers: list(process.env.BENCH_PROVIDERS ?? "hashing,openai"),
  concurrencies: list(process.env.BENCH_CONCURRENCY ?? "4,8").map(Number),
  repeats: Number(process.env.BENCH_REPEAT ?? 1),
  adminDatabaseUrl: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
  root: process.env.BENCH_FRONTDESK_ROOT ?? repositoryRoot,
  cpuProfile: process.env.BENCH_CPU_PROF === "1",
  probeLocal: process.env.BENCH_PROBE_LOCAL !== "0",
  sitemapTimeoutMs: Number(process.env.BENCH_SITEMAP_TIMEOUT_SECONDS ?? 900) * 1000,
  keepData: process.env.BENCH_KEEP_DATA === "1",
  vectorIndexMinChunks: process.env.BENCH_VECTOR_INDEX_MIN_CHUNKS,
  vectorOwnIndexMinChunks: process.env.BENCH_VECTOR_OWN_INDEX_MIN_CHUNKS,
  enforceTargets: process.env.BENCH_ENFORCE_TARGETS === "1",
};

const EMBEDDING_DIMENSIONS = 384;

/** The service's environment: this process's, minus any FRONTDESK_* of the caller's, plus the run's. */
function serviceEnvironment(overrides) {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("FRONTDESK_")));
  return { ...inherited, ...overrides };
}

function providerEnvironment(provider, embeddingsServer) {
  if (provider === "openai") {
    return {
      FRONTDESK_EMBEDDINGS_BASE_URL: embeddingsServer.baseUrl,
      FRONTDESK_EMBEDDINGS_MODEL: "bench-hash",
      FRONTDESK_EMBEDDINGS_DIMENSIONS: String(EMBEDDING_DIMENSIONS),
    };
  }
  return {};
}

async function seed(env) {
  const workspace = await runAdmin(settings.root, env, ["workspace", "create", "--name", "Bench"]);
  const agent = await runAdmin(settings.root, env, ["agent", "create", "--workspace", workspace.id, "--name", "Bench", "--origin", "https://bench.test"]);
  const token = await runAdmin(settings.root, env, ["token", "create", "--workspace", workspace.id, "--name", "bench"]);
  return { agentId: agent.id, token: token.token };
}

/** Warnings and errors in the service's log (pino writes to stdout, so they were never seen while only stderr was read). */
function countLogLines(output) {
  let warnings = 0;
  let errors = 0;
  for (const line of output.split("\n")) {
    const level = /"level":(\d+)/.exec(line)?.[1];
    if (level === "40") warnings += 1;
    else if (level !== undefined && Number(level) >= 50) errors += 1;
  }
  return { warnings, errors };
}

/** One run on a fresh store (a temporary data dir, and a fresh database for Postgres), removed afterwards. */
async function runScenario({ store, provider, concurrency }, shared) {
  const label = `${store}/${provider}/${concurrency} workers/${shared.pages} pages`;
  const runId = Math.random().toString(36).slice(2, 8);
  const dataDir = await mkdtemp(join(tmpdir(), "frontdesk-bench-ingest-"));
  const database = store === "postgres" ? await createBenchDatabase(settings.adminDatabaseUrl) : null;
  const env = serviceEnvironment({
    FRONTDESK_DATA_DIR: dataDir,
    FRONTDESK_LOG_LEVEL: "warn",
    FRONTDESK_CRAWLER_ALLOW_PRIVATE_NETWORKS: "true",
    FRONTDESK_EMBEDDINGS_PROVIDER: provider,
    FRONTDESK_EMBEDDINGS_ALLOW_DOWNLOAD: "false",
    FRONTDESK_RATE_LIMIT_SOURCES_PER_MINUTE: "100000",
    // A 25 MB upload on a shared machine can take longer than the default 30 s to arrive whole.
    FRONTDESK_HTTP_REQUEST_TIMEOUT_SECONDS: "600",
    FRONTDESK_WORKER_CONCURRENCY: String(concurrency),
    // Chunks enter the HNSW index once the agent has this many (unset: the service's default, 1,000); a huge value measures ingestion without it.
    ...(settings.vectorIndexMinChunks ? { FRONTDESK_VECTOR_INDEX_MIN_CHUNKS: settings.vectorIndexMinChunks } : {}),
    // An agent expected to hold this many chunks gets its own index, built after the sync (unset: the default, 20,000; 0: never).
    ...(settings.vectorOwnIndexMinChunks ? { FRONTDESK_VECTOR_OWN_INDEX_MIN_CHUNKS: settings.vectorOwnIndexMinChunks } : {}),
    // The default cap is 5,000 pages a sitemap source.
    FRONTDESK_SITEMAP_MAX_PAGES: String(Math.max(5000, shared.pages)),
    ...(database ? { FRONTDESK_DATABASE_URL: database.url } : {}),
    ...providerEnvironment(provider, shared.embeddingsServer),
  });
  const cpuProfileDir = settings.cpuProfile ? join(resultsDir, "profiles", `ingest-${store}-${provider}-${concurrency}-${runId}`) : undefined;
  if (cpuProfileDir) await mkdir(cpuProfileDir, { recursive: true });
  try {
    log(`${label}: starting the service${database ? ` on ${database.name}` : ""}`);
    return await measureOnService({ label, runId, store, provider, concurrency, env, cpuProfileDir, database, dataDir }, shared);
  } catch (error) {
    log(`${label} failed: ${error.message}`);
    return { store, provider, concurrency, pages: shared.pages, error: error.message };
  } finally {
    await database?.drop();
    if (!settings.keepData) await rm(dataDir, { recursive: true, force: true });
  }
}

/** One run against a started service; the service is stopped before this returns. */
async function measureOnService({ label, runId, store, provider, concurrency, env, cpuProfileDir, database, dataDir }, shared) {
  const service = await startService({ root: settings.root, env, cpuProfileDir });
  let sampler = null;
  try {
    const { agentId, token } = await seed(env);
    const client = sourcesClient(service.baseUrl, token);
    sampler = sampleMemory(service.pid);
    const idleMemory = readMemory(service.pid);
    shared.site.resetStats();
    shared.embeddingsServer.resetStats();
    log(`${label}: pushing the sitemap (${shared.pages} pages)`);
    const embeddingBefore = await readEmbeddingMetrics(service.baseUrl);
    const sitemap = await measureSitemap({
      client,
      agentId,
      sitemapUrl: shared.site.sitemapUrl,
      pid: service.pid,
      database,
      timeoutMs: settings.sitemapTimeoutMs,
    });
    const sitemapPeakMiB = sampler.peakMiB;
    const sitemapRssMiB = readMemory(service.pid).rssMiB;
    const embeddingAfter = await readEmbeddingMetrics(service.baseUrl);
    const embeddingSeconds = embeddingAfter.seconds - embeddingBefore.seconds;
    const crawl = { ...shared.site.stats };
    const sitemapEmbeddings = { ...shared.embeddingsServer.stats };
    log(`${label}: ${sitemap.pagesIndexed} pages in ${(sitemap.pushToIndexedMs / 1000).toFixed(1)}s; pushing ${settings.texts} texts`);
    const text = await measureTexts({ client, agentId, runId, count: settings.texts });
    let files = null;
    if (settings.files > 0 && shared.filesToo) {
      log(`${label}: uploading ${settings.files} PDFs, ${settings.files} DOCX files, then large files: ${settings.largeFiles.join(", ") || "none"}`);
      files = await measureFiles({ baseUrl: service.baseUrl, token, agentId, client, sampler, runId, count: settings.files, large: settings.largeFiles });
      log(`${label}: files ${JSON.stringify(files)}`);
    }
    const memory = { idleMiB: idleMemory.rssMiB, sitemapPeakSampledMiB: sitemapPeakMiB, sitemapEndRssMiB: sitemapRssMiB, ...readMemory(service.pid) };
    const summary = database ? await readIndexSummary({ url: database.url }) : null;
    sampler.stop();
    await service.stop();
    const index = summary ?? (await readIndexSummary({ dataDir }));
    const pages = index.byKind.sitemap ?? { documents: 0, chunks: 0, indexedAt: [] };
    const texts = index.byKind.text ?? { documents: 0, chunks: 0, indexedAt: [] };
    const seconds = sitemap.pushToIndexedMs / 1000;
    const result = {
      store,
      provider,
      concurrency,
      pages: shared.pages,
      embedder: service.health.embeddings,
      sitemap: {
        ...sitemap,
        chunks: pages.chunks,
        pagesPerSecond: sitemap.pagesIndexed / seconds,
        chunksPerSecond: pages.chunks / seconds,
        steadyPagesPerSecond: steadyRate(pages.indexedAt),
        fanOutMs: pages.documents ? pages.firstCreatedAt - sitemap.pushedAt : null,
        firstPageMs: pages.indexedAt.length ? pages.indexedAt[0] - sitemap.pushedAt : null,
        lastPageMs: pages.indexedAt.length ? pages.indexedAt.at(-1) - sitemap.pushedAt : null,
        pagesIndexedPerSecondTimeline: timeline(pages.indexedAt, sitemap.pushedAt),
        crawlerRequests: crawl,
        // Seconds spent in the embedder's calls (the workers' own clock), and their share of the workers' time (concurrency × push→indexed).
        embeddingSeconds,
        embeddingChunks: embeddingAfter.chunks - embeddingBefore.chunks,
        embedderSharePercent: (embeddingSeconds / ((concurrency * sitemap.pushToIndexedMs) / 1000)) * 100,
        embeddingsServer: provider === "openai" ? sitemapEmbeddings : null,
      },
      text: { ...text, chunks: texts.chunks, documents: texts.documents },
      files,
      memory,
      chunkRows: index.chunkRows,
      logLines: countLogLines(service.output()),
    };
    delete result.sitemap.pushedAt;
    return result;
  } catch (error) {
    log(`${label} failed: ${error.message}\n${service.output().slice(-3000)}`);
    sampler?.stop();
    await service.stop();
    return { store, provider, concurrency, pages: shared.pages, error: error.message };
  }
}

/** The embedder's counters from the service's /metrics: seconds spent embedding, chunks embedded. */
async function readEmbeddingMetrics(baseUrl) {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const value = (name) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+-]+)$`, "m").exec(text)?.[1] ?? 0);
  return { seconds: value("frontdesk_ingest_embedding_duration_seconds_sum"), chunks: value("frontdesk_ingest_chunks_embedded_total") };
}

/** Files per second and MB per second for PDF and DOCX, and each large file's time and peak RSS, per run. */
function filesReport(runs) {
  const lines = [];
  for (const run of runs.filter((candidate) => candidate.files)) {
    const label = `${run.store}/${run.provider}/${run.concurrency} workers`;
    for (const [kind, batch] of [["PDF", run.files.pdf], ["DOCX", run.files.docx]]) {
      lines.push(`${label}  ${batch.files} ${kind}  ${batch.megabytes.toFixed(2)} MB  ${batch.filesPerSecond.toFixed(2)} files/s  ${batch.megabytesPerSecond.toFixed(3)} MB/s`);
    }
    for (const [name, large] of Object.entries(run.files.large)) {
      lines.push(
        `${label}  large ${name} PDF  ${large.megabytes.toFixed(1)} MB  ${large.seconds.toFixed(1)} s to indexed  ${large.megabytesPerSecond.toFixed(3)} MB/s  ` +
          `peak RSS ${large.peakRssMiB.toFixed(0)} MiB (${large.rssBeforeMiB.toFixed(0)} MiB before)`,
      );
    }
  }
  return lines.length > 0 ? `Files (uploaded one after the other, timed until indexed; peak RSS sampled every 100 ms):\n${lines.join("\n")}` : "";
}

/** Whether the `local` provider can load its model here (no download allowed); it degrades to hashing if not. */
async function probeLocalProvider() {
  const dataDir = await mkdtemp(join(tmpdir(), "frontdesk-bench-local-"));
  const env = serviceEnvironment({
    FRONTDESK_DATA_DIR: dataDir,
    FRONTDESK_LOG_LEVEL: "silent",
    FRONTDESK_EMBEDDINGS_PROVIDER: "local",
    FRONTDESK_EMBEDDINGS_ALLOW_DOWNLOAD: "false",
  });
  try {
    const service = await startService({ root: settings.root, env });
    await service.stop();
    return service.health.embeddings;
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function describeMachine() {
  let postgres = null;
  if (settings.stores.includes("postgres")) {
    const client = new pg.Client({ connectionString: settings.adminDatabaseUrl });
    await client.connect();
    postgres = (await client.query("SHOW server_version")).rows[0].server_version;
    await client.end();
  }
  const pglite = JSON.parse(readFileSync(join(repositoryRoot, "node_modules", "@electric-sql", "pglite", "package.json"), "utf8")).version;
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? "unknown",
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    postgres,
    pglite,
    loadAverageAtStart: loadavg().map((value) => Number(value.toFixed(2))),
  };
}

async function main() {
  if (!existsSync(join(settings.root, "packages", "server", "dist", "cli", "main.js"))) {
    throw new BenchFailure(`${settings.root} is not built: run \`npm run build\` first`);
  }
  const startedAt = new Date();
  const machine = await describeMachine();
  log(`machine: ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}, load ${machine.loadAverageAtStart.join(" ")}`);
  const embeddingsServer = await startEmbeddingsServer({ dimensions: EMBEDDING_DIMENSIONS });
  const runs = [];
  const sites = [];
  let local = null;
  try {
    if (settings.probeLocal) {
      local = await probeLocalProvider();
      log(`local provider: ${local.degraded ? `degraded (${local.reason})` : local.id}`);
    }
    for (const [position, pages] of settings.pages.entries()) {
      const site = await startSite(pages, { fileEntries: settings.sitemapFileEntries });
      sites.push({ pages, sitemapFiles: site.sitemapFiles, words: site.words });
      log(`site: ${pages} pages at ${site.origin}, ${site.sitemapFiles} sitemap file(s) (content ${site.words.min}–${site.words.max} words, mean ${site.words.mean})`);
      try {
        for (const store of settings.stores) {
          for (const provider of settings.providers) {
            for (const concurrency of settings.concurrencies) {
              for (let repeat = 1; repeat <= settings.repeats; repeat += 1) {
                const shared = { site, embeddingsServer, pages, filesToo: position === 0 };
                runs.push({ ...(await runScenario({ store, provider, concurrency }, shared)), repeat });
              }
            }
          }
        }
      } finally {
        await site.close();
      }
    }
  } finally {
    await embeddingsServer.close();
  }

  const verdicts = judgeTargets(runs);
  const best = bestRuns(runs).map((run) => ({
    pages: run.pages,
    store: run.store,
    provider: run.provider,
    concurrency: run.concurrency,
    repeats: run.repeats,
    pagesPerSecond: run.sitemap.pagesPerSecond,
    chunksPerSecond: run.sitemap.chunksPerSecond,
    pushToIndexedMs: run.sitemap.pushToIndexedMs,
    peakRssMiB: run.memory.hwmMiB,
  }));
  process.stdout.write(`\nIngest benchmark, ${settings.pages.join(", ")} pages per sitemap, ${settings.texts} text pushes per run (${startedAt.toISOString()}, load ${machine.loadAverageAtStart.join(" ")})\n\n`);
  process.stdout.write(`${runsTable(runs)}\n\n`);
  if (settings.pages.length > 1) process.stdout.write(`How the sitemap's figures grow with the site (the fastest run of each column):\n\n${growthTable(runs)}\n\n`);
  process.stdout.write("peak RSS = VmHWM of the server process at the end of the run (sitemap + texts); CPU % is of one core (200 % = both cores); machine busy % is of the whole machine (100 % = both cores busy)\n");
  const filesTable = filesReport(runs);
  if (filesTable) process.stdout.write(`\n${filesTable}\n`);
  for (const entry of best) {
    const basis = entry.repeats > 1 ? `fastest of ${entry.repeats} runs` : "one run";
    process.stdout.write(`best concurrency for ${entry.store}/${entry.provider} at ${entry.pages} pages: ${entry.concurrency} workers (${entry.pagesPerSecond.toFixed(1)} pages/s, ${basis})\n`);
  }
  if (local) process.stdout.write(`local provider: ${local.degraded ? `not measured, the model cannot load here: ${local.reason}` : `loaded ${local.id} (not measured by this bench)`}\n`);
  process.stdout.write(`\n${verdictsTable(verdicts)}\n`);

  await mkdir(resultsDir, { recursive: true });
  const stamp = startedAt.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z").replace(/^(\d{4})(\d{2})(\d{2})/, "$1-$2-$3");
  const file = join(resultsDir, `ingest-${stamp}.json`);
  const settingsForFile = { ...settings, adminDatabaseUrl: settings.adminDatabaseUrl.replace(/\/\/[^@]*@/, "//…@") };
  await writeFile(file, `${JSON.stringify({ startedAt, machine, settings: settingsForFile, sites, local, runs, best, verdicts }, null, 2)}\n`);
  process.stdout.write(`\nresults: ${file}\n`);
  if (runs.some((run) => run.error)) return 1;
  return settings.enforceTargets && verdicts.some((verdict) => !verdict.met) ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`${error instanceof BenchFailure ? error.message : error.stack}\n`);
    process.exitCode = 1;
  },
);
