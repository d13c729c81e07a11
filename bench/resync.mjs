#!/usr/bin/env node
// Re-sync benchmark: `npm run bench:resync` (see docs/benchmarks.md, section "Scheduled re-sync").
//
// Serves a BENCH_PAGES-page website on loopback (one sitemap.xml, a sitemap index of 50,000-page
// files past 50,000 pages; realistic HTML), starts
// `frontdesk serve` on a fresh Postgres database with the hashing embedder, pushes the sitemap and
// waits until every page is indexed. Then changes BENCH_CHANGED_PERCENT % of the pages and asks for a
// re-sync (the sitemap pushed again: the same path a scheduled re-sync takes, without waiting for the
// minute's tick), and measures until the last page job has ended: the time, the pages re-embedded
// (documents whose chunk rows were rewritten, read from the store), the 304s the site answered and
// the conditional requests it received, the chunks embedded (the service's /metrics) and written.
// BENCH_PAGES may list sizes (2000,10000,100000): each runs on its own site and database, and one
// table puts them side by side, a column per size.
//
// Environment (all optional):
//   BENCH_PAGES=2000 (or a list)   BENCH_CHANGED_PERCENT=1   BENCH_CONCURRENCY=4 (FRONTDESK_WORKER_CONCURRENCY)
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
  sizes: (process.env.BENCH_PAGES ?? "2000").split(",").map((size) => Number(size.trim())).filter((size) => size > 0),
  changedPercent: Number(process.env.BENCH_CHANGED_PERCENT ?? 1),
  concurrency: Number(process.env.BENCH_CONCURRENCY ?? 4),
  validators: process.env.BENCH_VALIDATORS ?? "etag",
  adminDatabaseUrl: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
};
const log = (message) => process.stderr.write(`[bench] ${message}\n`);

const TOPICS = ["tents", "sleeping bags", "stoves", "backpacks", "boots", "jackets", "lamps", "maps"];

const SITEMAP_FILE_ENTRIES = 50_000;

function urlset(origin, from, to) {
  const urls = [];
  for (let n = from; n <= to; n += 1) urls.push(`<url><loc>${origin}/p/${n}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>`;
}

/** The loopback site: /p/N with a version each; counts the answers it gives. */
function startSite(pages) {
  const versions = new Array(pages + 1).fill(1);
  const files = Math.ceil(pages / SITEMAP_FILE_ENTRIES);
  const counts = { pages: 0, notModified: 0, conditional: 0 };
  const server = createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0];
    if (path === "/robots.txt") {
      response.writeHead(200, { "content-type": "text/plain" });
      return void response.end("User-agent: *\nAllow: /\n");
    }
    if (path === "/sitemap.xml") {
      response.writeHead(200, { "content-type": "application/xml" });
      if (files === 1) return void response.end(urlset(site.origin, 1, pages));
      const entries = Array.from({ length: files }, (_, i) => `<sitemap><loc>${site.origin}/sitemap-${i + 1}.xml</loc></sitemap>`).join("\n");
      return void response.end(`<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries}\n</sitemapindex>`);
    }
    const file = Number(/^\/sitemap-(\d+)\.xml$/.exec(path)?.[1] ?? 0);
    if (file >= 1 && file <= files && files > 1) {
      response.writeHead(200, { "content-type": "application/xml" });
      return void response.end(urlset(site.origin, (file - 1) * SITEMAP_FILE_ENTRIES + 1, Math.min(pages, file * SITEMAP_FILE_ENTRIES)));
    }
    const match = /^\/p\/(\d+)$/.exec(path);
    const n = match ? Number(match[1]) : 0;
    if (n < 1 || n > pages) {
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

/** The embedder's counter from the service's /metrics: chunks embedded. */
async function chunksEmbedded(baseUrl) {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  return Number(/^frontdesk_ingest_chunks_embedded_total ([0-9.e+-]+)$/m.exec(text)?.[1] ?? 0);
}

/** One size: a first sync, then a re-sync with BENCH_CHANGED_PERCENT % of the pages changed, on a fresh database. */
async function runSize(pages) {
  const site = await startSite(pages);
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
    FRONTDESK_SITEMAP_MAX_PAGES: String(Math.max(5000, pages)),
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

    log(`first sync of ${pages} pages (validators: ${settings.validators}, concurrency ${settings.concurrency})`);
    const firstStarted = performance.now();
    const source = await push();
    await waitUntilSettled(client, source.id, 4 * 60 * 60_000);
    const firstSeconds = (performance.now() - firstStarted) / 1000;
    const [{ indexed, chunks }] = (
      await client.query(`SELECT count(*) FILTER (WHERE status = 'indexed')::int AS indexed, coalesce(sum(chunk_count), 0)::int AS chunks FROM documents WHERE source_id = $1`, [source.id])
    ).rows;
    log(`first sync: ${indexed} pages, ${chunks} chunks in ${firstSeconds.toFixed(1)} s`);

    const changed = Math.max(1, Math.round((pages * settings.changedPercent) / 100));
    const step = Math.floor(pages / changed);
    for (let i = 0; i < changed; i += 1) site.versions[1 + i * step] += 1;
    const [{ max_chunk: maxChunk }] = (await client.query(`SELECT coalesce(max(id), 0)::bigint AS max_chunk FROM chunks`)).rows;
    site.counts.pages = 0;
    site.counts.notModified = 0;
    site.counts.conditional = 0;
    const load = loadavg()[0];
    const embeddedBefore = await chunksEmbedded(service.baseUrl);

    const started = performance.now();
    await push();
    await waitUntilSettled(client, source.id, 4 * 60 * 60_000);
    const seconds = (performance.now() - started) / 1000;
    const embedded = (await chunksEmbedded(service.baseUrl)) - embeddedBefore;
    const [{ reembedded, written }] = (
      await client.query(
        `SELECT count(DISTINCT c.document_id)::int AS reembedded, count(*)::int AS written FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.source_id = $1 AND c.id > $2`,
        [source.id, maxChunk],
      )
    ).rows;
    const result = {
      date: new Date().toISOString(),
      machine: `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, load ${load.toFixed(2)} (1-min average) before the re-sync`,
      pages,
      chunks,
      changed,
      validators: settings.validators,
      concurrency: settings.concurrency,
      firstSyncSeconds: Number(firstSeconds.toFixed(1)),
      resyncSeconds: Number(seconds.toFixed(2)),
      pagesReembedded: reembedded,
      chunksEmbedded: embedded,
      chunksWritten: written,
      pageRequests: site.counts.pages,
      conditionalRequests: site.counts.conditional,
      notModified: site.counts.notModified,
    };
    log(JSON.stringify(result));
    if (reembedded !== changed) throw new BenchFailure(`expected ${changed} pages re-embedded, got ${reembedded}`);
    return result;
  } finally {
    await client.end().catch(() => undefined);
    await service?.stop();
    await site.close();
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** A column per size. */
function table(results) {
  const rows = [
    ["pages (chunks)", (r) => `${r.pages.toLocaleString("en")} (${r.chunks.toLocaleString("en")})`],
    ["first sync s", (r) => r.firstSyncSeconds],
    ["first sync pages/s", (r) => (r.pages / r.firstSyncSeconds).toFixed(1)],
    ["pages changed", (r) => r.changed],
    ["re-sync s", (r) => r.resyncSeconds],
    ["re-sync pages/s (pages checked)", (r) => (r.pages / r.resyncSeconds).toFixed(1)],
    ["pages re-embedded", (r) => r.pagesReembedded],
    ["chunks embedded", (r) => r.chunksEmbedded],
    ["chunk rows written", (r) => r.chunksWritten],
    ["page requests", (r) => r.pageRequests],
    ["conditional", (r) => r.conditionalRequests],
    ["304", (r) => r.notModified],
    ["load before the re-sync", (r) => /load ([0-9.]+)/.exec(r.machine)?.[1] ?? ""],
  ];
  const header = `| | ${results.map((r) => `${r.pages.toLocaleString("en")} pages`).join(" | ")} |`;
  const rule = `|---|${results.map(() => "---").join("|")}|`;
  return [header, rule, ...rows.map(([label, cell]) => `| ${label} | ${results.map(cell).join(" | ")} |`)].join("\n");
}

async function main() {
  const results = [];
  for (const pages of settings.sizes) results.push(await runSize(pages));
  console.log(JSON.stringify(results, null, 2));
  console.log(`\nRe-sync, ${settings.changedPercent} % of the pages changed, validators ${settings.validators}, ${settings.concurrency} workers, ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}\n`);
  console.log(table(results));
}

main().catch((error) => {
  console.error(error instanceof BenchFailure ? error.message : error);
  process.exit(1);
});
