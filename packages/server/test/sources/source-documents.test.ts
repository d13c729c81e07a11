import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import { enqueueDueResyncs } from "../../src/sources/enqueue-due-resyncs.js";
import { CONSOLE, createSignedInOperator, type ConsoleSession } from "../support/console-session.js";
import { pageWithBoilerplate } from "../support/loopback-site.js";
import { adminOf, bearer, seedTenant, startSession, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

const SOURCES = "/api/v1/workspace/sources";

/** What each page of the site is about: one topic a page, in words no other page uses. */
const PAGES: Record<string, [string, string[]]> = {
  "/help/returns": ["Returns", [
    "Returned kayaks are refunded within fourteen days once the warehouse inspects the hull.",
    "A refund for a returned kayak goes back to the card that paid for it.",
    "Paddles bought with a kayak may be returned with it for a full refund.",
  ]],
  "/help/shipping": ["Shipping", [
    "Parcels leave the depot every weekday morning and reach the coast in two days.",
    "Oversized parcels travel by freight pallet and a driver calls before arriving.",
    "Island addresses pay a ferry surcharge on every parcel.",
  ]],
  "/careers/jobs": ["Careers", [
    "We are hiring a warehouse forklift driver for the night shift.",
    "Applicants send a resume and a short letter to the hiring team.",
    "Interviews for the forklift role happen on Thursdays.",
  ]],
  "/blog/news": ["News", [
    "Our summer regatta gathered ninety canoes on the lake.",
    "The regatta trophy went to a team of grandparents.",
    "Next year's regatta moves to the estuary.",
  ]],
};

/** The site on loopback: a sitemap of the four pages; each request's path is recorded. */
class KnowledgeSite {
  private server: Server | null = null;
  origin = "";
  seen: string[] = [];

  async start(): Promise<void> {
    this.server = createServer((request, response) => this.handle(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
  url = (path: string) => `${this.origin}${path}`;

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const path = (request.url ?? "/").split("?")[0]!;
    this.seen.push(path);
    if (path === "/robots.txt") return void response.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nAllow: /\n");
    if (path === "/sitemap.xml") {
      const urls = Object.keys(PAGES).map((page) => `<url><loc>${this.url(page)}</loc></url>`).join("");
      return void response
        .writeHead(200, { "content-type": "application/xml" })
        .end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`);
    }
    const page = PAGES[path];
    if (!page) return void response.writeHead(404, { "content-type": "text/plain" }).end("not found");
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(pageWithBoilerplate(page[0], page[1]));
  }
}

interface ListedDocument {
  id: number;
  url: string;
  title: string | null;
  status: string;
  bytes: number | null;
  last_fetched_at: string | null;
  chunk_count: number;
  error: { code: string; message: string } | null;
}

describeEachStore("a source's documents on %s", (kind) => {
  const site = new KnowledgeSite();
  let t: TestApp;
  let tenant: Tenant;
  let token: string;
  let admin: ConsoleSession;

  beforeAll(async () => {
    await site.start();
    t = await createTestApp(kind, { FRONTDESK_RATE_LIMIT_SOURCES_PER_MINUTE: "100000" }, {
      workers: { allowedNetworks: ["127.0.0.1/32"], responseTimeoutMs: 1500, connectTimeoutMs: 1000 },
    });
    tenant = await seedTenant(t.services);
    token = ((await runAdminCommand(adminOf(t.services), { command: "token.create", workspaceId: tenant.workspaceId, name: "docs" })) as { token: string }).token;
    admin = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "admin" });
  });
  afterAll(async () => {
    await t.close();
    await site.stop();
  });

  const api = (url: string, withToken = token) => t.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${withToken}` } });
  const push = (payload: Record<string, unknown>) =>
    t.app.inject({ method: "POST", url: SOURCES, headers: { authorization: `Bearer ${token}` }, payload: { agent_id: tenant.agentId, ...payload } });
  const console = (method: "GET" | "PATCH" | "POST", url: string, payload?: Record<string, unknown>, session = admin) =>
    t.app.inject({ method, url: `${CONSOLE}${url}`, headers: session.headers, ...(payload ? { payload } : {}) });

  /** Waits until the source's sync has ended: not pending, no page waiting, no index job left. */
  const settle = async (id: string) => {
    for (let attempt = 0; attempt < 600; attempt += 1) {
      const { rows } = await t.services.db.query<{ status: string; pending: number; jobs: number }>(
        `SELECT s.status, (SELECT count(*)::int FROM documents d WHERE d.source_id = s.id AND d.status = 'pending') AS pending,
           (SELECT count(*)::int FROM pgboss.job WHERE name IN ('index-source', 'index-page') AND state IN ('created', 'retry', 'active') AND data->>'sourceId' = s.id) AS jobs
         FROM sources s WHERE s.id = $1`,
        [id],
      );
      const row = rows[0]!;
      if (row.status !== "pending" && row.pending === 0 && row.jobs === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`source ${id} did not settle`);
  };
  const listAll = async (sourceId: string): Promise<ListedDocument[]> => (await api(`${SOURCES}/${sourceId}/documents?limit=200`)).json().data;
  const byPath = async (sourceId: string) => new Map((await listAll(sourceId)).map((document) => [new URL(document.url).pathname, document]));
  const citedPaths = async (question: string) => {
    const session = await startSession(t.app, tenant.agentId);
    const response = await t.app.inject({ method: "POST", url: "/api/v1/widget/messages", headers: bearer(session.jwt), payload: { message: question } });
    expect(response.statusCode).toBe(200);
    return (response.json().data.citations as { url: string }[]).map((citation) => new URL(citation.url).pathname);
  };

  let sitemapId = "";

  it("happy: a sitemap's exclude pattern keeps a page from the crawl; its documents are listed in pages, with their text and chunks", async () => {
    site.seen = [];
    const created = await push({ kind: "sitemap", url: site.url("/sitemap.xml"), exclude_patterns: ["/careers/*"] });
    expect(created.statusCode).toBe(201);
    sitemapId = created.json().data.id;
    expect(created.json().data.config).toMatchObject({ exclude_patterns: ["/careers/*"] });
    await settle(sitemapId);
    expect(site.seen).not.toContain("/careers/jobs");

    const first = await api(`${SOURCES}/${sitemapId}/documents?limit=2`);
    expect(first.statusCode).toBe(200);
    const firstPage = first.json() as { data: ListedDocument[]; next_cursor: string | null };
    expect(firstPage.data).toHaveLength(2);
    expect(firstPage.next_cursor).toEqual(expect.any(String));
    const second = (await api(`${SOURCES}/${sitemapId}/documents?limit=2&cursor=${firstPage.next_cursor}`)).json() as { data: ListedDocument[]; next_cursor: string | null };
    expect(second.data).toHaveLength(1);
    expect(second.next_cursor).toBeNull();
    const all = [...firstPage.data, ...second.data];
    expect(all.map((document) => new URL(document.url).pathname).sort()).toEqual(["/blog/news", "/help/returns", "/help/shipping"]);
    expect(all.find((document) => document.url.endsWith("/help/returns"))!.title).toBe("Returns");
    expect(all.map((document) => document.id)).toEqual([...all.map((document) => document.id)].sort((a, b) => a - b));
    for (const document of all) {
      expect(document).toMatchObject({ status: "indexed", error: null, title: expect.any(String) });
      expect(document.bytes).toBeGreaterThan(500);
      expect(document.chunk_count).toBeGreaterThan(0);
      expect(Date.parse(document.last_fetched_at!)).toBeGreaterThan(Date.now() - 120_000);
    }

    const returns = all.find((document) => document.url.endsWith("/help/returns"))!;
    const detail = await api(`${SOURCES}/${sitemapId}/documents/${returns.id}`);
    expect(detail.statusCode).toBe(200);
    const shown = detail.json().data as { text: string; chunks: { index: number; content: string; heading: string | null }[]; chunk_count: number };
    expect(shown.text).toContain("Returned kayaks are refunded within fourteen days");
    expect(shown.text).not.toContain("cookies");
    expect(shown.chunks.map((chunk) => chunk.index)).toEqual(Array.from({ length: shown.chunk_count }, (_, i) => i));
    expect(shown.chunks.map((chunk) => chunk.content).join(" ")).toContain("goes back to the card");
    // The console reads the same.
    const onConsole = await console("GET", `/knowledge/sources/${sitemapId}/documents/${returns.id}`);
    expect(onConsole.json().data).toEqual(detail.json().data);
    expect((await console("GET", `/knowledge/sources/${sitemapId}/documents`)).json().data).toHaveLength(3);
  });

  it("happy: an excluded page is no longer cited, is skipped by manual and scheduled re-syncs, and is indexed again when included", async () => {
    expect(await citedPaths("How are returned kayaks refunded?")).toContain("/help/returns");
    const returns = (await byPath(sitemapId)).get("/help/returns")!;

    const excluded = await console("PATCH", `/knowledge/sources/${sitemapId}/documents/${returns.id}`, { excluded: true });
    expect(excluded.statusCode).toBe(200);
    expect(excluded.json().data).toMatchObject({ id: returns.id, status: "excluded", chunk_count: 0, chunks: [] });
    const { rows } = await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM chunks WHERE document_id = $1`, [returns.id]);
    expect(rows[0]!.n).toBe(0);
    expect(await citedPaths("How are returned kayaks refunded?")).not.toContain("/help/returns");
    // Excluded pages are not counted as found.
    const progress = (await console("GET", `/knowledge/sources/${sitemapId}`)).json().data.progress;
    expect(progress).toMatchObject({ pages_found: 2, pages_indexed: 2 });

    // A re-sync asked for on the console does not fetch it, and leaves it excluded.
    site.seen = [];
    expect((await console("POST", `/knowledge/sources/${sitemapId}/resync`)).statusCode).toBe(202);
    await settle(sitemapId);
    expect(site.seen).toContain("/help/shipping");
    expect(site.seen).not.toContain("/help/returns");
    expect((await byPath(sitemapId)).get("/help/returns")).toMatchObject({ status: "excluded", chunk_count: 0 });

    // Nor does a scheduled one.
    await console("PATCH", `/knowledge/sources/${sitemapId}`, { schedule: "daily" });
    await t.services.db.query(`UPDATE sources SET next_sync_at = now() - interval '1 minute' WHERE id = $1`, [sitemapId]);
    site.seen = [];
    expect((await enqueueDueResyncs(t.services, { now: new Date() })).enqueued).toContain(sitemapId);
    await settle(sitemapId);
    expect(site.seen).toContain("/help/shipping");
    expect(site.seen).not.toContain("/help/returns");
    expect(await citedPaths("How are returned kayaks refunded?")).not.toContain("/help/returns");

    // Included again: fetched and indexed anew, and cited.
    const included = await console("PATCH", `/knowledge/sources/${sitemapId}/documents/${returns.id}`, { excluded: false });
    expect(included.statusCode).toBe(200);
    expect(included.json().data.status).toBe("pending");
    await settle(sitemapId);
    expect((await byPath(sitemapId)).get("/help/returns")).toMatchObject({ status: "indexed", chunk_count: expect.any(Number) });
    expect((await byPath(sitemapId)).get("/help/returns")!.chunk_count).toBeGreaterThan(0);
    expect(await citedPaths("How are returned kayaks refunded?")).toContain("/help/returns");
  });

  it("happy: the Sources API excludes a page (no longer cited, chunks gone) and includes it again (indexed, cited), as the console's switch does", async () => {
    const shipping = (await byPath(sitemapId)).get("/help/shipping")!;
    const patch = (excluded: unknown, withToken = token, documentId: number | string = shipping.id) =>
      t.app.inject({ method: "PATCH", url: `${SOURCES}/${sitemapId}/documents/${documentId}`, headers: { authorization: `Bearer ${withToken}` }, payload: { excluded } });
    expect(await citedPaths("When do parcels reach the coast?")).toContain("/help/shipping");

    const excluded = await patch(true);
    expect(excluded.statusCode, excluded.body).toBe(200);
    expect(excluded.json().data).toMatchObject({ id: shipping.id, status: "excluded", chunk_count: 0, chunks: [] });
    const { rows } = await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM chunks WHERE document_id = $1`, [shipping.id]);
    expect(rows[0]!.n).toBe(0);
    expect(await citedPaths("When do parcels reach the coast?")).not.toContain("/help/shipping");
    // Again: nothing more to do, the same answer.
    expect((await patch(true)).json().data).toMatchObject({ status: "excluded", chunk_count: 0 });
    // The console sees what the API did.
    expect((await console("GET", `/knowledge/sources/${sitemapId}/documents/${shipping.id}`)).json().data.status).toBe("excluded");

    const included = await patch(false);
    expect(included.statusCode).toBe(200);
    expect(included.json().data.status).toBe("pending");
    await settle(sitemapId);
    expect((await byPath(sitemapId)).get("/help/shipping")!.chunk_count).toBeGreaterThan(0);
    expect(await citedPaths("When do parcels reach the coast?")).toContain("/help/shipping");

    // A read-only token, another workspace's token, an unknown document and a bad body change nothing.
    const reader = ((await runAdminCommand(adminOf(t.services), { command: "token.create", workspaceId: tenant.workspaceId, name: "reader", abilities: ["sources:read"] })) as { token: string }).token;
    const refused = await patch(true, reader);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: { code: "missing_ability", message: expect.stringContaining("sources:write") } });
    const other = await seedTenant(t.services);
    const outsider = ((await runAdminCommand(adminOf(t.services), { command: "token.create", workspaceId: other.workspaceId, name: "outsider" })) as { token: string }).token;
    expect((await patch(true, outsider)).json().error.code).toBe("source_not_found");
    expect((await patch(true, token, 999_999_999)).json().error.code).toBe("document_not_found");
    const bad = await patch("yes");
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.fields).toHaveProperty("excluded");
    expect((await patch(true, token, "abc")).statusCode).toBe(422);
    expect((await byPath(sitemapId)).get("/help/shipping")).toMatchObject({ status: "indexed" });
  });

  it("happy: changed URL patterns drop the pages they now leave out at once, and the re-sync brings in those they let in", async () => {
    expect(await citedPaths("Who won the regatta trophy?")).toContain("/blog/news");
    const changed = await console("PATCH", `/knowledge/sources/${sitemapId}`, { include_patterns: ["/help/*", "/careers/*"], exclude_patterns: [] });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data.config).toMatchObject({ include_patterns: ["/help/*", "/careers/*"], exclude_patterns: [] });
    // Gone before the re-sync ran: from the listing and from answers.
    expect((await byPath(sitemapId)).has("/blog/news")).toBe(false);
    expect(await citedPaths("Who won the regatta trophy?")).not.toContain("/blog/news");
    await settle(sitemapId);
    const after = await byPath(sitemapId);
    expect([...after.keys()].sort()).toEqual(["/careers/jobs", "/help/returns", "/help/shipping"]);
    expect(after.get("/careers/jobs")).toMatchObject({ status: "indexed" });
  });

  it("error: another workspace's source, an unknown document, bad ids, cursors, limits and patterns are 404s and 422s", async () => {
    const other = await seedTenant(t.services);
    const outsiderToken = ((await runAdminCommand(adminOf(t.services), { command: "token.create", workspaceId: other.workspaceId, name: "other" })) as { token: string }).token;
    const someDocument = (await listAll(sitemapId))[0]!;
    const expectError = (response: { statusCode: number; json(): { error: { code: string; fields?: Record<string, string[]> } } }, status: number, code: string) => {
      expect(response.statusCode).toBe(status);
      expect(response.json().error.code).toBe(code);
      return response.json().error;
    };
    expectError(await api(`${SOURCES}/${sitemapId}/documents`, outsiderToken), 404, "source_not_found");
    expectError(await api(`${SOURCES}/${sitemapId}/documents/${someDocument.id}`, outsiderToken), 404, "source_not_found");
    expectError(await api(`${SOURCES}/${sitemapId}/documents/999999999`), 404, "document_not_found");
    expectError(await api(`${SOURCES}/src_unknown/documents`), 404, "source_not_found");
    expect(expectError(await api(`${SOURCES}/${sitemapId}/documents/abc`), 422, "validation_failed").fields).toHaveProperty(["params.document_id"]);
    expect(expectError(await api(`${SOURCES}/${sitemapId}/documents?cursor=nonsense`), 422, "validation_failed").fields).toHaveProperty(["querystring.cursor"]);
    expect(expectError(await api(`${SOURCES}/${sitemapId}/documents?limit=0`), 422, "validation_failed").fields).toHaveProperty(["querystring.limit"]);
    expect(expectError(await api(`${SOURCES}/${sitemapId}/documents?limit=201`), 422, "validation_failed").fields).toHaveProperty(["querystring.limit"]);

    const outsider = await createSignedInOperator(t, { workspaceId: other.workspaceId, role: "admin" });
    expectError(await console("GET", `/knowledge/sources/${sitemapId}/documents`, undefined, outsider), 404, "source_not_found");
    expectError(await console("PATCH", `/knowledge/sources/${sitemapId}/documents/${someDocument.id}`, { excluded: true }, outsider), 404, "source_not_found");
    expectError(await console("PATCH", `/knowledge/sources/${sitemapId}/documents/999999999`, { excluded: true }), 404, "document_not_found");
    expect(expectError(await console("PATCH", `/knowledge/sources/${sitemapId}/documents/${someDocument.id}`, { excluded: "yes" }), 422, "validation_failed").fields).toHaveProperty("excluded");
    const agentOperator = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "agent" });
    expect((await console("GET", `/knowledge/sources/${sitemapId}/documents`, undefined, agentOperator)).statusCode).toBe(200);
    expectError(await console("PATCH", `/knowledge/sources/${sitemapId}/documents/${someDocument.id}`, { excluded: true }, agentOperator), 403, "forbidden");

    // Patterns: validated on create and on update, and only a sitemap takes them.
    const badCreate = await push({ kind: "sitemap", url: site.url("/sitemap.xml?bad"), exclude_patterns: ["blog/*"], include_patterns: ["/a b"] });
    expect(expectError(badCreate, 422, "validation_failed").fields).toMatchObject({ "exclude_patterns.0": expect.any(Array), "include_patterns.0": expect.any(Array) });
    expect(expectError(await console("PATCH", `/knowledge/sources/${sitemapId}`, { exclude_patterns: ["/x/**"] }), 422, "validation_failed").fields).toHaveProperty(["exclude_patterns.0"]);
    expect(expectError(await console("PATCH", `/knowledge/sources/${sitemapId}`, { include_patterns: ["/a", "/a"] }), 422, "validation_failed").fields).toHaveProperty("include_patterns");
    expect(expectError(await console("PATCH", `/knowledge/sources/${sitemapId}`, {}), 422, "validation_failed").fields).toBeDefined();
    const page = (await push({ kind: "url", url: site.url("/help/shipping?single") })).json().data as { id: string };
    expect(expectError(await console("PATCH", `/knowledge/sources/${page.id}`, { exclude_patterns: ["/x/*"] }), 422, "validation_failed").fields).toHaveProperty("exclude_patterns");
    await settle(page.id);
  });
});

describeEachStore("an excluded WordPress post on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let wpToken: string;
  let admin: ConsoleSession;

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { workers: {} });
    tenant = await seedTenant(t.services);
    wpToken = ((await runAdminCommand(adminOf(t.services), { command: "token.create", workspaceId: tenant.workspaceId, name: "wp", abilities: ["wp:sync"] })) as { token: string }).token;
    admin = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "admin" });
  });
  afterAll(() => t.close());

  const post = (id: number, text: string) => ({
    post_id: id,
    url: `https://shop.example.com/blog/post-${id}`,
    title: `Post ${id}`,
    content: `<p>${text}</p>`,
    modified_at: new Date().toISOString(),
    status: "publish",
    type: "post",
  });
  const push = (posts: unknown[]) => t.app.inject({ method: "POST", url: "/api/v1/wp/posts", headers: bearer(wpToken), payload: { agent_id: tenant.agentId, posts } });
  const settled = async () => {
    for (let attempt = 0; attempt < 600; attempt += 1) {
      const { rows } = await t.services.db.query<{ pending: number; running: number }>(
        `SELECT (SELECT count(*)::int FROM documents WHERE agent_id = $1 AND status = 'pending') AS pending,
           (SELECT count(*)::int FROM pgboss.job WHERE name IN ('index-wordpress-posts', 'index-source') AND state IN ('created', 'retry', 'active')) AS running`,
        [tenant.agentId],
      );
      if (rows[0]!.pending === 0 && rows[0]!.running === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error("the posts were not indexed");
  };
  const documentOf = async (postId: number) =>
    (
      await t.services.db.query<{ id: number; source_id: string; status: string; chunks: number; text: string | null }>(
        `SELECT d.id::int AS id, d.source_id, d.status, d.extracted_text AS text, (SELECT count(*)::int FROM chunks c WHERE c.document_id = d.id) AS chunks
         FROM documents d WHERE d.agent_id = $1 AND d.url = $2`,
        [tenant.agentId, `https://shop.example.com/blog/post-${postId}`],
      )
    ).rows[0]!;

  it("happy: an excluded post stays out through a re-sync and a push of a changed text; included again, it is indexed", async () => {
    expect((await push([post(1, "Canoe rental costs thirty euros a day."), post(2, "The boathouse opens at eight.")])).statusCode).toBe(200);
    await settled();
    const first = await documentOf(1);
    expect(first).toMatchObject({ status: "indexed", text: "Canoe rental costs thirty euros a day." });
    expect(first.chunks).toBeGreaterThan(0);

    const excluded = await t.app.inject({ method: "PATCH", url: `${CONSOLE}/knowledge/sources/${first.source_id}/documents/${first.id}`, headers: admin.headers, payload: { excluded: true } });
    expect(excluded.statusCode).toBe(200);
    expect(await documentOf(1)).toMatchObject({ status: "excluded", chunks: 0 });

    expect((await t.app.inject({ method: "POST", url: `${CONSOLE}/knowledge/sources/${first.source_id}/resync`, headers: admin.headers })).statusCode).toBe(202);
    await settled();
    expect(await documentOf(1)).toMatchObject({ status: "excluded", chunks: 0 });
    expect(await documentOf(2)).toMatchObject({ status: "indexed" });
    expect((await push([post(1, "Canoe rental now costs forty euros a day.")])).statusCode).toBe(200);
    await settled();
    expect(await documentOf(1)).toMatchObject({ status: "excluded", chunks: 0 });

    await t.app.inject({ method: "PATCH", url: `${CONSOLE}/knowledge/sources/${first.source_id}/documents/${first.id}`, headers: admin.headers, payload: { excluded: false } });
    await settled();
    const back = await documentOf(1);
    expect(back).toMatchObject({ status: "indexed", text: "Canoe rental now costs forty euros a day." });
    expect(back.chunks).toBeGreaterThan(0);
  });
});
