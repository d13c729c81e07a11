#!/usr/bin/env node
// Re-sync benchmark: `npm run bench:resync` (see docs/benchmarks.md, section "Scheduled re-sync").
//
// Serves a BENCH_PAGES-page website on loopback (one sitemap.xml, realistic HTML), starts
// `frontdesk serve` on a fresh Postgres database with the hashing embedder, pushes the sitemap and
// waits until every page is indexed. Then changes BENCH_CHANGED_PERCENT % of the pages and asks for a
// re-sync (the sitemap pushed again: the same path a scheduled re-sync takes, without waiting for the
// minute's tick), and measures until the last page job has ended: the time, the pages re-embedded
// (documents whose chunk rows were rewritten, read from the store), the 304s the site answered and
// the conditional requests it received.
//
// Environment (all optional):
//   BENCH_PAGES=2000   BENCH_CHANGED_PERCENT=1   BENCH_CONCURRENCY=4 (FRONTDESK_WORKER_CONCURRENCY)
//   BENCH_VALIDATORS=etag   etag: pages answer with an ETag and a Last-Modified and honour them with 304;
//                           none: no validators (every page fetched in full, unchanged ones skipped by content hash)
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres  (an admin connection, for CREATE DATABASE)
import { createServer } from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { BenchFailure, createBenchDatabase, runAdmin, startService } from "./bench-service.mjs";

const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
const settings = {
  pages: Number(process.env.BENCH_PAGES ?? 2000),
  changedPercent: Number(process.env.BENCH_CHANGED_PERCENT ?? 1),
  concurrency: Number(process.env.BENCH_CONCURRENCY ?? 4),
  validators: process.env.BENCH_VALIDATORS ?? "etag",
  adminDatabaseUrl: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
};
const log = (message) => process.stderr.write(`[bench] ${message}\n`);

const TOPICS = ["tents", "sleeping bags", "stoves", "backpacks", "boots", "jackets", "lamps", "maps"];

/** The loopback site: /p/N with a version each; counts the answers it gives. */
function startSite() {
  const versions = new Array(settings.pages + 1).fill(1);
  const counts = { pages: 0, notModified: 0, conditional: 0 };
  const server = createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0];
    if (path === "/robots.txt") {
      response.writeHead(200, { "content-type": "text/plain" });
      return void response.end("User-agent: *\nAllow: /\n");
    }
    if (path === "/sitemap.xml") {
      const urls = Array.from({ length: settings.pages }, (_, i) => `<url><loc>${site.origin}/p/${i + 1}</loc></url>`).join("\n");
      response.writeHead(200, { "content-type": "application/xml" });
      return void response.end(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>`);
    }
    const match = /^\/p\/(\d+)$/.exec(path);
    const n = match ? Number(match[1]) : 0;
    if (n < 1 || n > settings.pages) {
      response.writeHead(404, { "content-type": "text/plain" });
      return void response.end("not found");
    }
    counts.pages += 1;
    const version = versions[n];
    const validators =
      settings.validators === "etag" ? { etag: `"p${n}-v${version}"`, "last-modified": new Date(Date.UTC(2026, 0, version)).toUTCString() } : {};
    if (request.headers["if-none-match"] || request.headers["if-modified-since"]) counts.conditional += 1;
    if (settings.validators === "etag" && request.headers["if-none-match"] === validators.etag) {
      counts.notModified += 1;
      response.writeHead(304, validators);
      return void response.end();
    }
    const topic = TOPICS[n % TOPICS.length];
    const paragraphs = Array.from(
      { length: 6 },
      (_, i) =>
        `<p>Guide ${n}, part ${i + 1} (revision ${version}): choosing ${topic} for a ${["weekend", "week", "month"][i % 3]} on the trail. ` +
        `Weight, packed size and price of model ${n * 7 + i} compared with the others we sell; how to care for it after a wet night.</p>`,
    ).join("\n");
    response.writeHead(200, { "content-type": "text/html; charset=utf-8", ...validators });
    response.end(`<!doctype html><html lang="en"><head><title>Guide ${n} | Acme Outdoor</title></head><body>
<header><nav><a href="/">Home</a> <a href="/shop">Shop</a></nav></header>
<main><article><h1>Guide ${n}: ${topic}</h1>${paragraphs}</article></main>
<footer><p>© 2026 Acme Outdoor</p></footer></body></html>`);
  });
  const site = {
    origin: "",
    versions,
    counts,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      site.origin = `http://127.0.0.1:${server.address().port}`;
      resolve(site);
    }),
  );
}

async function waitUntilSettled(client, sourceId, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await client.query(
      `SELECT s.status,
         (SELECT count(*)::int FROM documents d WHERE d.source_id = s.id AND d.status = 'pending') AS pending,
         (SELECT count(*)::int FROM pgboss.job j WHERE j.name IN ('index-source', 'index-page') AND j.state IN ('created', 'retry', 'active')
            AND j.data->>'sourceId' = s.id) AS jobs
       FROM sources s WHERE s.id = $1`,
      [sourceId],
    );
    const row = rows[0];
    if (row && row.status !== "pending" && row.pending === 0 && row.jobs === 0) return;
    if (Date.now() > deadline) throw new BenchFailure(`source ${sourceId} did not settle: ${JSON.stringify(row)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function main() {
  const site = await startSite();
  const database = await createBenchDatabase(settings.adminDatabaseUrl);
  const dataDir = await mkdtemp(join(tmpdir(), "frontdesk-bench-resync-"));
  const env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("FRONTDESK_"))),
    FRONTDESK_DATA_DIR: dataDir,
    FRONTDESK_DATABASE_URL: database.url,
    FRONTDESK_LOG_LEVEL: "warn",
    FRONTDESK_CRAWLER_ALLOW_PRIVATE_NETWORKS: "true",
    FRONTDESK_EMBEDDINGS_PROVIDER: "hashing",
    FRONTDESK_RATE_LIMIT_SOURCES_PER_MINUTE: "100000",
    FRONTDESK_WORKER_CONCURRENCY: String(settings.concurrency),
  };
  const client = new pg.Client({ connectionString: database.url });
  let service;
  try {
    const workspace = await runAdmin(repositoryRoot, env, ["workspace", "create", "--name", "Bench"]);
    const agent = await runAdmin(repositoryRoot, env, ["agent", "create", "--workspace", workspace.id, "--name", "Bench", "--origin", "https://bench.test"]);
    const token = await runAdmin(repositoryRoot, env, ["token", "create", "--workspace", workspace.id, "--name", "bench"]);
    service = await startService({ root: repositoryRoot, env });
    await client.connect();
    const push = async () => {
      const response = await fetch(`${service.baseUrl}/api/v1/workspace/sources`, {
        method: "POST",
        headers: { authorization: `Bearer ${token.token}`, "content-type": "application/json" },
        body: JSON.stringify({ agent_id: agent.id, kind: "sitemap", url: `${site.origin}/sitemap.xml`, schedule: "daily" }),
      });
      const json = await response.json();
      if (response.status !== 201 && response.status !== 200) throw new BenchFailure(`POST sources answered ${response.status}: ${JSON.stringify(json)}`);
      return json.data;
    };

    log(`first sync of ${settings.pages} pages (validators: ${settings.validators}, concurrency ${settings.concurrency})`);
    const firstStarted = performance.now();
    const source = await push();
    await waitUntilSettled(client, source.id, 30 * 60_000);
    const firstSeconds = (performance.now() - firstStarted) / 1000;
    const [{ indexed, chunks }] = (
      await client.query(`SELECT count(*) FILTER (WHERE status = 'indexed')::int AS indexed, coalesce(sum(chunk_count), 0)::int AS chunks FROM documents WHERE source_id = $1`, [source.id])
    ).rows;
    log(`first sync: ${indexed} pages, ${chunks} chunks in ${firstSeconds.toFixed(1)} s`);

    const changed = Math.round((settings.pages * settings.changedPercent) / 100);
    const step = Math.floor(settings.pages / changed);
    for (let i = 0; i < changed; i += 1) site.versions[1 + i * step] += 1;
    const [{ max_chunk: maxChunk }] = (await client.query(`SELECT coalesce(max(id), 0)::bigint AS max_chunk FROM chunks`)).rows;
    site.counts.pages = 0;
    site.counts.notModified = 0;
    site.counts.conditional = 0;
    const load = loadavg()[0];

    const started = performance.now();
    await push();
    await waitUntilSettled(client, source.id, 30 * 60_000);
    const seconds = (performance.now() - started) / 1000;
    const [{ reembedded }] = (
      await client.query(
        `SELECT count(DISTINCT c.document_id)::int AS reembedded FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.source_id = $1 AND c.id > $2`,
        [source.id, maxChunk],
      )
    ).rows;
    const result = {
      date: new Date().toISOString(),
      machine: `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, load ${load.toFixed(2)} (1-min average) before the re-sync`,
      pages: settings.pages,
      changed,
      validators: settings.validators,
      concurrency: settings.concurrency,
      firstSyncSeconds: Number(firstSeconds.toFixed(1)),
      resyncSeconds: Number(seconds.toFixed(2)),
      pagesReembedded: reembedded,
      pageRequests: site.counts.pages,
      conditionalRequests: site.counts.conditional,
      notModified: site.counts.notModified,
    };
    console.log(JSON.stringify(result, null, 2));
    if (reembedded !== changed) throw new BenchFailure(`expected ${changed} pages re-embedded, got ${reembedded}`);
  } finally {
    await client.end().catch(() => undefined);
    await service?.stop();
    await site.close();
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error instanceof BenchFailure ? error.message : error);
  process.exit(1);
});
