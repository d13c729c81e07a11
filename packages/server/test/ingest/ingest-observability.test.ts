import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import { capturedLogger, LOG_LEVELS, type LogLine } from "../support/captured-log.js";
import { LoopbackSite, pageWithBoilerplate } from "../support/loopback-site.js";
import { parsePrometheusText, sampleValue } from "../support/prometheus-text.js";
import { adminOf, seedTenant, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

const SOURCES = "/api/v1/workspace/sources";
const PAGES = 40;

/** A knowledge base of PAGES pages, one that is gone (404) and one that redirects to the cloud metadata address. */
function addKnowledgeBase(site: LoopbackSite): void {
  const paths = Array.from({ length: PAGES }, (_, i) => `/kb/${i + 1}`);
  const html = (response: ServerResponse, body: string) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(body);
  };
  for (const [i, path] of paths.entries()) {
    site.routes.set(path, (_request, response) =>
      html(response, pageWithBoilerplate(`Article ${i + 1}`, [
        `Article ${i + 1} explains how part number ${1000 + i} is fitted to the frame.`,
        `Fitting part ${1000 + i} takes about ${i + 5} minutes with the supplied tools.`,
        `Part ${1000 + i} is covered by the standard two-year warranty.`,
      ])),
    );
  }
  site.routes.set("/kb/to-metadata", (_request, response) => {
    response.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" });
    response.end();
  });
  site.routes.set("/kb/flaky", (_request, response) => {
    response.writeHead(503, { "content-type": "text/plain" });
    response.end("try later");
  });
  const listed = [...paths, "/kb/gone", "/kb/to-metadata"].map((path) => `<url><loc>${site.url(path)}</loc></url>`);
  site.routes.set("/kb-sitemap.xml", (_request, response) => {
    response.writeHead(200, { "content-type": "application/xml" });
    response.end(`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${listed.join("")}</urlset>`);
  });
}

describeEachStore("ingestion is visible in logs and /metrics on %s", (kind) => {
  const site = new LoopbackSite();
  const { logger, lines } = capturedLogger();
  let t: TestApp;
  let tenant: Tenant;
  let token: string;

  beforeAll(async () => {
    await site.start();
    addKnowledgeBase(site);
    t = await createTestApp(kind, { FRONTDESK_RATE_LIMIT_SOURCES_PER_MINUTE: "100000" }, {
      logger,
      // The guard stays on; only 127.0.0.1 (the loopback test site) is let through.
      workers: { allowedNetworks: ["127.0.0.1/32"], responseTimeoutMs: 2000, connectTimeoutMs: 1000 },
    });
    tenant = await seedTenant(t.services);
    token = ((await runAdminCommand(adminOf(t.services), { command: "token.create", workspaceId: tenant.workspaceId, name: "sync" })) as { token: string }).token;
  });
  afterAll(async () => {
    await t?.close();
    await site.stop();
  });

  const push = async (payload: Record<string, unknown>) => {
    const response = await t.app.inject({ method: "POST", url: SOURCES, headers: { authorization: `Bearer ${token}` }, payload: { agent_id: tenant.agentId, ...payload } });
    expect([200, 201]).toContain(response.statusCode);
    return (response.json() as { data: { id: string } }).data.id;
  };
  const get = async (id: string) =>
    ((await t.app.inject({ method: "GET", url: `${SOURCES}/${id}`, headers: { authorization: `Bearer ${token}` } })).json() as {
      data: { status: string; error: { code: string; message: string } | null };
    }).data;
  /** Waits for the log line that ends a source: the operator's view, no API polling. */
  const ended = async (sourceId: string): Promise<LogLine> => {
    for (let attempt = 0; attempt < 600; attempt += 1) {
      const line = linesOf(sourceId).find((candidate) => candidate.msg === "source indexed" || candidate.msg === "source failed");
      if (line) return line;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`source ${sourceId} never ended: ${JSON.stringify(linesOf(sourceId))}`);
  };
  const linesOf = (sourceId: string) => lines.filter((line) => line.sourceId === sourceId);
  const metrics = async () => parsePrometheusText((await t.app.inject({ method: "GET", url: "/metrics" })).body);

  it("happy: a sitemap logs its start, its progress every tenth of its pages (not a line per page) and its end; /metrics counts it all; its page refused by the SSRF guard names the setting", async () => {
    const sourceId = await push({ kind: "sitemap", url: site.url("/kb-sitemap.xml") });
    const end = await ended(sourceId);
    const found = PAGES + 2;
    expect(end).toMatchObject({ level: LOG_LEVELS.info, msg: "source indexed", kind: "sitemap", pagesFound: found, pagesIndexed: PAGES, pagesFailed: 2 });

    const own = linesOf(sourceId);
    expect(own[0]).toMatchObject({ level: LOG_LEVELS.info, msg: "source indexing started", kind: "sitemap", url: site.url("/kb-sitemap.xml") });
    expect(own.find((line) => line.msg === "sitemap read")).toMatchObject({ pagesFound: found, truncated: false });
    const progress = own.filter((line) => line.msg === "sitemap progress");
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.length).toBeLessThan(found / 2);
    const processed = progress.map((line) => Number(line.pagesIndexed) + Number(line.pagesFailed));
    expect(processed).toEqual([...processed].sort((a, b) => a - b));
    expect(progress.every((line) => line.level === LOG_LEVELS.info && line.pagesFound === found && Number(line.pagesPending) > 0)).toBe(true);
    // Settled once, even when the last pages finish together.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(linesOf(sourceId).filter((line) => line.msg === "source indexed")).toHaveLength(1);

    const samples = await metrics();
    expect(sampleValue(samples, "frontdesk_ingest_pages_fetched_total", { outcome: "ok" })).toBe(PAGES);
    expect(sampleValue(samples, "frontdesk_ingest_pages_fetched_total", { outcome: "http_status" })).toBe(1);
    expect(sampleValue(samples, "frontdesk_ingest_pages_fetched_total", { outcome: "blocked_address" })).toBe(1);
    expect(sampleValue(samples, "frontdesk_jobs_processed_total", { name: "index-source", outcome: "completed" })).toBe(1);
    expect(sampleValue(samples, "frontdesk_jobs_processed_total", { name: "index-page", outcome: "completed" })).toBe(found);
    expect(sampleValue(samples, "frontdesk_jobs_active", { name: "index-page" })).toBe(0);
    const { rows } = await t.services.db.query<{ chunks: number }>(
      `SELECT count(*)::int AS chunks FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.source_id = $1`,
      [sourceId],
    );
    expect(rows[0]!.chunks).toBeGreaterThanOrEqual(PAGES);
    expect(sampleValue(samples, "frontdesk_ingest_chunks_embedded_total")).toBe(rows[0]!.chunks);
    expect(sampleValue(samples, "frontdesk_ingest_embedding_duration_seconds_count")).toBe(PAGES);
    expect(sampleValue(samples, "frontdesk_ingest_embedding_duration_seconds_sum")).toBeGreaterThan(0);
    expect(sampleValue(samples, "frontdesk_job_duration_seconds_count", { name: "index-page" })).toBe(found);
    expect(sampleValue(samples, "frontdesk_job_queue_depth", { name: "index-page" })).toBe(0);
    expect(sampleValue(samples, "frontdesk_job_queue_oldest_age_seconds", { name: "index-page" })).toBe(0);

    // security: the page the SSRF guard refused says which setting lifts the guard and why it is on.
    const refused = await t.services.db.query<{ error: { code: string; message: string } }>(`SELECT error FROM documents WHERE url = $1`, [
      site.url("/kb/to-metadata"),
    ]);
    expect(refused.rows[0]!.error.code).toBe("blocked_address");
    expect(refused.rows[0]!.error.message).toContain("169.254.169.254");
    expect(refused.rows[0]!.error.message).toContain("FRONTDESK_CRAWLER_ALLOW_PRIVATE_NETWORKS=true");
  }, 120_000);

  it("security: a URL source refused by the SSRF guard fails with an error naming FRONTDESK_CRAWLER_ALLOW_PRIVATE_NETWORKS, shown by the API", async () => {
    // 127.0.0.2 is loopback and outside the test's one exception (127.0.0.1/32): refused before any connection.
    const sourceId = await push({ kind: "url", url: `http://127.0.0.2:${new URL(site.origin).port}/intranet` });
    const end = await ended(sourceId);
    expect(end).toMatchObject({ msg: "source failed", code: "blocked_address" });
    const source = await get(sourceId);
    expect(source.status).toBe("failed");
    expect(source.error?.code).toBe("blocked_address");
    expect(source.error?.message).toContain("(loopback)");
    expect(source.error?.message).toContain("FRONTDESK_CRAWLER_ALLOW_PRIVATE_NETWORKS=true");
    expect(source.error?.message).toContain("server-side request forgery");
  }, 60_000);

  it("error: a transient failure logs a warning, counts a retried job, and the last attempt's failure is logged", async () => {
    const earlier = await metrics();
    const before = sampleValue(earlier, "frontdesk_jobs_processed_total", { name: "index-source", outcome: "retried" });
    const refusedBefore = sampleValue(earlier, "frontdesk_ingest_pages_fetched_total", { outcome: "http_status" }) ?? 0;
    const sourceId = await push({ kind: "url", url: site.url("/kb/flaky") });
    const end = await ended(sourceId);
    expect(end).toMatchObject({ level: LOG_LEVELS.info, msg: "source failed", kind: "url", code: "http_status" });
    expect(linesOf(sourceId).filter((line) => line.msg === "source indexing started")).toHaveLength(2);
    expect(linesOf(sourceId).find((line) => line.msg === "indexing failed; will retry")).toMatchObject({ level: LOG_LEVELS.warn });
    const samples = await metrics();
    expect(sampleValue(samples, "frontdesk_jobs_processed_total", { name: "index-source", outcome: "retried" })).toBe((before ?? 0) + 1);
    // Both attempts fetched the page and got a 503.
    expect(sampleValue(samples, "frontdesk_ingest_pages_fetched_total", { outcome: "http_status" })).toBe(refusedBefore + 2);
  }, 60_000);

  it("happy: a text source logs its start and its end with the chunks it made", async () => {
    const sourceId = await push({ kind: "text", title: "Opening hours", content: "The workshop opens at eight and closes at five on weekdays." });
    const end = await ended(sourceId);
    expect(end).toMatchObject({ level: LOG_LEVELS.info, msg: "source indexed", kind: "text", chunks: 1, durationMs: expect.any(Number) });
  }, 60_000);
});

describeEachStore("queue gauges read from the store on %s", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    // No workers: what is pushed stays queued.
    t = await createTestApp(kind, { FRONTDESK_RATE_LIMIT_SOURCES_PER_MINUTE: "100000" });
  });
  afterAll(() => t?.close());

  it("happy: queue depth and the age of the oldest queued job, by job name", async () => {
    const tenant = await seedTenant(t.services);
    const token = ((await runAdminCommand(adminOf(t.services), { command: "token.create", workspaceId: tenant.workspaceId, name: "sync" })) as { token: string }).token;
    for (const content of ["First text to index.", "Second text to index."]) {
      const response = await t.app.inject({ method: "POST", url: SOURCES, headers: { authorization: `Bearer ${token}` }, payload: { agent_id: tenant.agentId, kind: "text", content } });
      expect(response.statusCode).toBe(201);
    }
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const samples = parsePrometheusText((await t.app.inject({ method: "GET", url: "/metrics" })).body);
    expect(sampleValue(samples, "frontdesk_job_queue_depth", { name: "index-source" })).toBe(2);
    expect(sampleValue(samples, "frontdesk_job_queue_depth", { name: "index-page" })).toBe(0);
    expect(sampleValue(samples, "frontdesk_job_queue_oldest_age_seconds", { name: "index-source" })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(samples, "frontdesk_job_queue_oldest_age_seconds", { name: "index-source" })).toBeLessThan(60);
  });
});
