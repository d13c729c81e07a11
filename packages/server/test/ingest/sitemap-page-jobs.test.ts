import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { textArray } from "../../src/db/text-array.js";
import { indexPageJobs, MAX_PAGES_PER_JOB, pagesPerJob } from "../../src/ingest/index-page-job.js";
import { pageWithBoilerplate } from "../support/loopback-site.js";
import type { Tenant } from "../support/seed.js";
import { startIndexingStage } from "../support/indexing-stage.js";
import type { TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { CountingEmbedder } from "../support/counting-embedder.js";

const SOURCES = "/api/v1/workspace/sources";
/** Enough pages for two pages a job (pagesPerJob), few enough for a test. */
const PAGES = 240;

describe("index-page jobs of a sitemap", () => {
  it("happy: a small sitemap keeps a page a job; a large one is read a few pages a job, in its order", () => {
    expect(pagesPerJob(1)).toBe(1);
    expect(pagesPerJob(200)).toBe(1);
    expect(pagesPerJob(500)).toBe(3);
    expect(pagesPerJob(10_000)).toBe(MAX_PAGES_PER_JOB);
    expect(pagesPerJob(1_000_000)).toBe(MAX_PAGES_PER_JOB);
    const ids = Array.from({ length: 100_000 }, (_, i) => i + 1);
    const jobs = indexPageJobs("src_1", ids);
    expect(jobs).toHaveLength(100_000 / MAX_PAGES_PER_JOB);
    expect(jobs.flatMap((job) => job.documentIds)).toEqual(ids);
    expect(indexPageJobs("src_1", [7, 8, 9])).toEqual([{ sourceId: "src_1", documentIds: [7] }, { sourceId: "src_1", documentIds: [8] }, { sourceId: "src_1", documentIds: [9] }]);
  });

  it("error: no page, no job", () => {
    expect(indexPageJobs("src_1", [])).toEqual([]);
  });
});

/** The hashing embedder, counting the texts it is asked to embed. */
/**
 * A site of PAGES pages at /p/N with an ETag and a Last-Modified each (honoured with 304), a version
 * per page to change it, pages made to answer 503 a number of times, and a count of what was asked.
 */
class VersionedSite {
  readonly versions = new Array<number>(PAGES + 1).fill(1);
  /** 503s still to answer, by page number. */
  readonly unavailable = new Map<number, number>();
  readonly fetched = new Map<number, number>();
  counts = { pages: 0, conditional: 0, notModified: 0 };
  origin = "";
  private server: Server | null = null;

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const path = (request.url ?? "/").split("?")[0]!;
      if (path === "/robots.txt") return void response.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nAllow: /\n");
      if (path === "/sitemap.xml") {
        const urls = Array.from({ length: PAGES }, (_, i) => `<url><loc>${this.origin}/p/${i + 1}</loc></url>`).join("\n");
        response.writeHead(200, { "content-type": "application/xml" });
        return void response.end(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>`);
      }
      const n = Number(/^\/p\/(\d+)$/.exec(path)?.[1] ?? 0);
      if (n < 1 || n > PAGES) return void response.writeHead(404).end();
      this.counts.pages += 1;
      this.fetched.set(n, (this.fetched.get(n) ?? 0) + 1);
      const failures = this.unavailable.get(n) ?? 0;
      if (failures > 0) {
        this.unavailable.set(n, failures - 1);
        return void response.writeHead(503).end();
      }
      const version = this.versions[n]!;
      const etag = `"p${n}-v${version}"`;
      const lastModified = new Date(Date.UTC(2026, 10, 1, 0, 0, version)).toUTCString();
      if (request.headers["if-none-match"] !== undefined || request.headers["if-modified-since"] !== undefined) this.counts.conditional += 1;
      if (request.headers["if-none-match"] === etag) {
        this.counts.notModified += 1;
        return void response.writeHead(304, { etag, "last-modified": lastModified }).end();
      }
      const body = pageWithBoilerplate(`Page ${n}, version ${version}`, [
        `Page ${n} explains how parcel ${n * 7} travels from the depot in version ${version}, with its tracking number and delivery window.`,
        `Returns of order ${n} are accepted for thirty days in version ${version}, and the refund goes back to the original payment method.`,
        `The warranty of item ${n} covers two years of normal use in version ${version}, spare parts included.`,
      ]);
      response.writeHead(200, { "content-type": "text/html; charset=utf-8", etag, "last-modified": lastModified });
      response.end(body);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  resetCounts(): void {
    this.counts = { pages: 0, conditional: 0, notModified: 0 };
    this.fetched.clear();
  }
}

describeEachStore("a sitemap's pages, a few a job, on %s", (kind) => {
  const site = new VersionedSite();
  const embedder = new CountingEmbedder();
  let t: TestApp;
  let tenant: Tenant;
  let token: string;

  beforeAll(async () => {
    await site.start();
    ({ t, tenant, token } = await startIndexingStage(kind, embedder, { responseTimeoutMs: 3000, connectTimeoutMs: 2000 }));
  }, 120_000);
  afterAll(async () => {
    await t.close();
    await site.stop();
  });

  const push = async () => {
    const response = await t.app.inject({
      method: "POST",
      url: SOURCES,
      headers: { authorization: `Bearer ${token}` },
      payload: { agent_id: tenant.agentId, kind: "sitemap", url: `${site.origin}/sitemap.xml` },
    });
    expect([200, 201]).toContain(response.statusCode);
    return response.json().data as { id: string };
  };
  /** Polls until the source leaves `pending` and, for a re-sync (which keeps it indexed), until it was synced again after `since`. */
  const settle = async (id: string, since: string | null = null) => {
    for (let attempt = 0; attempt < 1200; attempt += 1) {
      const source = (await t.app.inject({ method: "GET", url: `${SOURCES}/${id}`, headers: { authorization: `Bearer ${token}` } })).json().data as {
        status: string;
        config: Record<string, unknown>;
        last_synced_at: string | null;
      };
      if (source.status !== "pending" && source.last_synced_at !== since) return source;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`source ${id} did not settle`);
  };
  const pageJobs = async (sourceId: string) =>
    (
      await t.services.db.query<{ pages: number }>(
        `SELECT coalesce(jsonb_array_length(data->'documentIds'), 1)::int AS pages FROM pgboss.job WHERE name = 'index-page' AND data->>'sourceId' = $1 ORDER BY created_on, id`,
        [sourceId],
      )
    ).rows.map((row) => row.pages);
  /** Each page's chunk ids, by URL: rewritten chunks get new ids. */
  const chunkIds = async (sourceId: string) => {
    const { rows } = await t.services.db.query<{ url: string; ids: string }>(
      `SELECT d.url, string_agg(c.id::text, ',' ORDER BY c.id) AS ids FROM documents d JOIN chunks c ON c.document_id = d.id WHERE d.source_id = $1 GROUP BY d.url`,
      [sourceId],
    );
    return new Map(rows.map((row) => [row.url, row.ids]));
  };
  let sourceId = "";
  let lastSyncedAt: string | null = null;

  it("happy: the pages are queued two a job; each is fetched once, a page failing once is read again alone, and the counts settle right", async () => {
    site.unavailable.set(5, 1);
    const embeddedBefore = embedder.embedded;
    sourceId = (await push()).id;
    const settled = await settle(sourceId);
    lastSyncedAt = settled.last_synced_at;
    expect(settled.status).toBe("indexed");
    expect(settled.config).toMatchObject({ pages_found: PAGES, pages_indexed: PAGES, pages_failed: 0 });
    const jobs = await pageJobs(sourceId);
    expect(jobs).toHaveLength(PAGES / 2);
    expect(jobs.every((pages) => pages === 2)).toBe(true);
    // Page 5 answered 503 once: its job was retried, and only it was fetched again (page 6, its job's other page, was not).
    expect(site.fetched.get(5)).toBe(2);
    expect(site.fetched.get(6)).toBe(1);
    expect(site.counts.pages).toBe(PAGES + 1);
    const { rows } = await t.services.db.query<{ indexed: number; chunks: number }>(
      `SELECT count(*) FILTER (WHERE status = 'indexed')::int AS indexed, coalesce(sum(chunk_count), 0)::int AS chunks FROM documents WHERE source_id = $1`,
      [sourceId],
    );
    expect(rows[0]!.indexed).toBe(PAGES);
    expect(embedder.embedded - embeddedBefore).toBe(rows[0]!.chunks);
  }, 180_000);

  it("happy: a re-sync where 3 pages changed asks for every page conditionally and re-embeds and rewrites only those 3", async () => {
    expect(sourceId).not.toBe("");
    const before = await chunkIds(sourceId);
    const changed = [3, 100, 240];
    for (const n of changed) site.versions[n] = 2;
    site.resetCounts();
    const embeddedBefore = embedder.embedded;
    await push();
    const settled = await settle(sourceId, lastSyncedAt);
    lastSyncedAt = settled.last_synced_at;
    expect(settled.config).toMatchObject({ pages_found: PAGES, pages_indexed: PAGES, pages_failed: 0 });
    expect(site.counts).toEqual({ pages: PAGES, conditional: PAGES, notModified: PAGES - changed.length });
    const after = await chunkIds(sourceId);
    const rewritten = [...after].filter(([url, ids]) => before.get(url) !== ids).map(([url]) => Number(url.split("/p/")[1]));
    expect(rewritten.sort((a, b) => a - b)).toEqual(changed);
    const { rows } = await t.services.db.query<{ chunks: number }>(
      `SELECT coalesce(sum(chunk_count), 0)::int AS chunks FROM documents WHERE source_id = $1 AND url = ANY($2::text[])`,
      [sourceId, textArray(changed.map((n) => `${site.origin}/p/${n}`))],
    );
    expect(embedder.embedded - embeddedBefore).toBe(rows[0]!.chunks);
  }, 180_000);

  it("error: a page that keeps answering 503 fails alone after the retries; the other page of its job is read again", async () => {
    expect(sourceId).not.toBe("");
    site.versions[10] = 3;
    site.unavailable.set(9, 10);
    await push();
    const settled = await settle(sourceId, lastSyncedAt);
    expect(settled.status).toBe("indexed");
    expect(settled.config).toMatchObject({ pages_found: PAGES, pages_indexed: PAGES - 1, pages_failed: 1 });
    const { rows } = await t.services.db.query<{ url: string; status: string; code: string | null }>(
      `SELECT url, status, error->>'code' AS code FROM documents WHERE source_id = $1 AND url = ANY($2::text[]) ORDER BY url`,
      [sourceId, textArray([`${site.origin}/p/10`, `${site.origin}/p/9`])],
    );
    expect(rows).toEqual([
      { url: `${site.origin}/p/10`, status: "indexed", code: null },
      // Indexed before, it keeps its chunks and says why it could not be read again.
      { url: `${site.origin}/p/9`, status: "indexed", code: "http_status" },
    ]);
    site.unavailable.clear();
  }, 180_000);
});
