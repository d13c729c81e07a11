#!/usr/bin/env node
// Memory benchmark: `node bench/memory.mjs` (see docs/benchmarks.md, section "Memory").
//
// Starts `frontdesk serve` on the embedded defaults (PGlite in a fresh data dir, default worker
// concurrency) for each embeddings scenario, and reads its memory from outside (memory-probe.mjs):
//   1. idle after start (BENCH_SETTLE_SECONDS after /healthz answers),
//   2. a 25-page loopback site indexed (its sitemap pushed through the Sources API): right after, and
//      idle BENCH_IDLE_SECONDS later (past the worker pools' idle timeout),
//   3. a 500-page sitemap indexed: the peak RSS while it runs (sampled every 100 ms, and VmHWM),
//      then idle again;
//   4. the service stopped and started again on the same data dir (a restart: no initdb, 525 pages
//      stored), idle BENCH_SETTLE_SECONDS after /healthz answers.
// Each reading gives RSS, and a breakdown: WebAssembly memories (PGlite), mapped files, other
// anonymous memory, and each thread's V8 heap (main, pglite-worker, pool workers) via --inspect.
// Scenarios (BENCH_SCENARIOS): `offline` — the default `local` provider whose model host is
// unreachable (what a user gets offline: the hashing fallback, degraded); `hashing`.
//
// Environment (all optional): BENCH_SCENARIOS=offline,hashing  BENCH_SMALL_PAGES=25  BENCH_LARGE_PAGES=500
//   BENCH_SETTLE_SECONDS=5  BENCH_IDLE_SECONDS=40  BENCH_FRONTDESK_ROOT=<checkout> (default: this one)
//   BENCH_INSPECT=0 (no --inspect, so no per-thread heaps)  BENCH_SITEMAP_TIMEOUT_SECONDS=900
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { cpus, tmpdir, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { BenchFailure, freePort, runAdmin, sampleMemory, sleep, sourcesClient, startService } from "./bench-service.mjs";
import { startSite } from "./ingest-site.mjs";
import { readSmapsBreakdown, readStatus, readThreadHeaps } from "./memory-probe.mjs";

const repositoryRoot = dirname(dirname(fileURLToPath(import.meta.url)));
const list = (value) => value.split(",").map((item) => item.trim()).filter(Boolean);
const settings = {
  scenarios: list(process.env.BENCH_SCENARIOS ?? "offline,hashing"),
  smallPages: Number(process.env.BENCH_SMALL_PAGES ?? 25),
  largePages: Number(process.env.BENCH_LARGE_PAGES ?? 500),
  settleMs: Number(process.env.BENCH_SETTLE_SECONDS ?? 5) * 1000,
  idleMs: Number(process.env.BENCH_IDLE_SECONDS ?? 40) * 1000,
  root: process.env.BENCH_FRONTDESK_ROOT ?? repositoryRoot,
  inspect: process.env.BENCH_INSPECT !== "0",
  sitemapTimeoutMs: Number(process.env.BENCH_SITEMAP_TIMEOUT_SECONDS ?? 900) * 1000,
};

const log = (message) => process.stderr.write(`[bench] ${message}\n`);
const round = (value) => Math.round(value);

async function scenarioEnvironment(scenario, dataDir) {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("FRONTDESK_")));
  // Defaults otherwise; the loopback site needs private networks, and the bench's polling must not be rate-limited.
  const env = {
    ...inherited,
    FRONTDESK_DATA_DIR: dataDir,
    FRONTDESK_LOG_LEVEL: "warn",
    FRONTDESK_CRAWLER_ALLOW_PRIVATE_NETWORKS: "true",
    FRONTDESK_RATE_LIMIT_SOURCES_PER_MINUTE: "100000",
  };
  if (scenario === "hashing") return { ...env, FRONTDESK_EMBEDDINGS_PROVIDER: "hashing" };
  if (scenario === "offline") return { ...env, FRONTDESK_EMBEDDINGS_MODEL_HOST: `http://127.0.0.1:${await freePort()}/` };
  throw new BenchFailure(`unknown scenario ${scenario} (offline, hashing)`);
}

/** RSS, the smaps breakdown and (with --inspect) each thread's V8 heap, now. */
async function reading(service, inspectorPort) {
  const status = readStatus(service.pid);
  const smaps = readSmapsBreakdown(service.pid);
  const heaps = inspectorPort ? await readThreadHeaps(inspectorPort).catch((error) => [{ thread: `unavailable: ${error.message}` }]) : [];
  return { ...status, ...smaps, heaps };
}

async function indexSitemap(client, agentId, sitemapUrl) {
  const started = Date.now();
  const source = await client.push({ agent_id: agentId, kind: "sitemap", url: sitemapUrl });
  let current = source;
  while (current.status === "pending") {
    if (Date.now() - started > settings.sitemapTimeoutMs) throw new BenchFailure(`sitemap still pending after ${settings.sitemapTimeoutMs / 1000}s`);
    await sleep(1_000);
    current = await client.get(source.id);
  }
  if (current.status !== "indexed") throw new BenchFailure(`the sitemap ended ${current.status}: ${JSON.stringify(current.error)}`);
  return { pages: Number(current.config.pages_indexed), seconds: (Date.now() - started) / 1000 };
}

async function runScenario(scenario, sites) {
  const dataDir = await mkdtemp(join(tmpdir(), "frontdesk-bench-memory-"));
  const env = await scenarioEnvironment(scenario, dataDir);
  const inspectorPort = settings.inspect ? await freePort() : null;
  const nodeOptions = inspectorPort ? [`--inspect=127.0.0.1:${inspectorPort}`] : [];
  log(`${scenario}: starting the service`);
  let service = await startService({ root: settings.root, env, nodeOptions });
  const sampler = sampleMemory(service.pid);
  try {
    const workspace = await runAdmin(settings.root, env, ["workspace", "create", "--name", "Bench"]);
    const agent = await runAdmin(settings.root, env, ["agent", "create", "--workspace", workspace.id, "--name", "Bench", "--origin", "https://bench.test"]);
    const { token } = await runAdmin(settings.root, env, ["token", "create", "--workspace", workspace.id, "--name", "bench"]);
    const client = sourcesClient(service.baseUrl, token);
    await sleep(settings.settleMs);
    const idleAfterStart = await reading(service, inspectorPort);
    const startPeakMiB = idleAfterStart.peakMiB;

    log(`${scenario}: indexing ${settings.smallPages} pages`);
    const small = await indexSitemap(client, agent.id, sites.small.sitemapUrl);
    const afterSmall = await reading(service, inspectorPort);
    await sleep(settings.idleMs);
    const idleAfterSmall = await reading(service, inspectorPort);

    log(`${scenario}: indexing ${settings.largePages} pages`);
    sampler.reset();
    const large = await indexSitemap(client, agent.id, sites.large.sitemapUrl);
    const largePeakSampledMiB = sampler.peakMiB;
    const afterLarge = await reading(service, inspectorPort);
    await sleep(settings.idleMs);
    const idleAfterLarge = await reading(service, inspectorPort);
    await service.stop();
    log(`${scenario}: restarting on the same data dir`);
    service = await startService({ root: settings.root, env, nodeOptions });
    await sleep(settings.settleMs);
    const idleAfterRestart = await reading(service, inspectorPort);
    return {
      scenario,
      embeddings: service.health.embeddings,
      startPeakMiB,
      idleAfterStart,
      small: { ...small, after: afterSmall, idle: idleAfterSmall },
      large: { ...large, peakSampledMiB: largePeakSampledMiB, peakMiB: afterLarge.peakMiB, after: afterLarge, idle: idleAfterLarge },
      restart: { idle: idleAfterRestart },
    };
  } catch (error) {
    log(`${scenario} failed: ${error.message}\n${service.output().slice(-3000)}`);
    return { scenario, error: error.message };
  } finally {
    sampler.stop();
    await service.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

function breakdownRow(label, value) {
  const heaps = (value.heaps ?? []).map((heap) => `${heap.thread} ${round(heap.usedMiB)}/${round(heap.totalMiB)}`).join(", ");
  return `| ${label} | ${round(value.rssMiB)} | ${round(value.wasmMiB)} | ${round(value.filesMiB)} | ${round(value.otherAnonMiB + value.heapBrkMiB)} | ${value.threads} | ${heaps} |`;
}

function report(results) {
  const lines = [];
  for (const result of results) {
    lines.push(`\n### ${result.scenario}${result.embeddings ? ` (embedder ${result.embeddings.id}${result.embeddings.degraded ? ", degraded" : ""})` : ""}`);
    if (result.error) {
      lines.push(`failed: ${result.error}`);
      continue;
    }
    lines.push("", "| reading | RSS MiB | WASM (PGlite) | files | other anon | threads | V8 heaps used/committed MiB |", "|---|---:|---:|---:|---:|---:|---|");
    lines.push(breakdownRow("idle after start", result.idleAfterStart));
    lines.push(breakdownRow(`${result.small.pages} pages indexed (${result.small.seconds.toFixed(0)} s), right after`, result.small.after));
    lines.push(breakdownRow(`… idle ${settings.idleMs / 1000} s later`, result.small.idle));
    lines.push(breakdownRow(`${result.large.pages} more pages indexed (${result.large.seconds.toFixed(0)} s), right after`, result.large.after));
    lines.push(breakdownRow(`… idle ${settings.idleMs / 1000} s later`, result.large.idle));
    lines.push(breakdownRow("restarted on that data dir, idle", result.restart.idle));
    lines.push("", `Peak RSS: ${round(result.startPeakMiB)} MiB during start; ${round(result.large.peakMiB)} MiB (VmHWM) / ${round(result.large.peakSampledMiB)} MiB (sampled) by the end of the ${result.large.pages}-page sitemap.`);
  }
  return lines.join("\n");
}

const sites = { small: await startSite(settings.smallPages), large: await startSite(settings.largePages) };
const results = [];
try {
  for (const scenario of settings.scenarios) results.push(await runScenario(scenario, sites));
} finally {
  await sites.small.close();
  await sites.large.close();
}
const machine = `${cpus().length} vCPUs, ${round(totalmem() / 1024 ** 3)} GB, Node ${process.versions.node}`;
console.log(`Memory of frontdesk serve on PGlite (${machine}), ${new Date().toISOString().slice(0, 10)}${settings.inspect ? ", with --inspect" : ""}`);
console.log(report(results));
const resultsDir = join(repositoryRoot, "bench", "results");
await mkdir(resultsDir, { recursive: true });
const file = join(resultsDir, `memory-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
await writeFile(file, JSON.stringify({ settings, machine, results }, null, 2));
log(`results in ${file}`);
if (results.some((result) => result.error)) process.exitCode = 1;
