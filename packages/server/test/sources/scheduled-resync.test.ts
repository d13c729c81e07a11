import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enqueueDueResyncs } from "../../src/sources/enqueue-due-resyncs.js";
import { JITTER_SHARE, jitterFraction, nextSyncAt, SCHEDULE_INTERVAL_MS } from "../../src/sources/source-schedule.js";
import { CONSOLE, createSignedInOperator, type ConsoleSession } from "../support/console-session.js";
import { pageWithBoilerplate } from "../support/loopback-site.js";
import { seedTenant, type Tenant } from "../support/seed.js";
import { startIndexingStage } from "../support/indexing-stage.js";
import type { TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { CountingEmbedder } from "../support/counting-embedder.js";

const SOURCES = "/api/v1/workspace/sources";

/** The hashing embedder, counting the texts it embeds. */
interface SeenRequest {
  path: string;
  ifNoneMatch: string | undefined;
  ifModifiedSince: string | undefined;
  status: number;
}

/**
 * A site of 20 pages on loopback: pages 1-10 answer with an ETag, 11-15 with a Last-Modified, 16-20
 * with neither; each honours its validator with a 304. `version` changes a page, `status` makes it
 * answer an error, `listed` is what the sitemap lists.
 */
class VersionedSite {
  private server: Server | null = null;
  origin = "";
  readonly version = new Map<number, number>();
  readonly status = new Map<number, number>();
  listed = Array.from({ length: 20 }, (_, i) => i + 1);
  seen: SeenRequest[] = [];

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
    const answer = (status: number, headers: Record<string, string>, body = "") => {
      this.seen.push({ path, ifNoneMatch: request.headers["if-none-match"], ifModifiedSince: request.headers["if-modified-since"], status });
      response.writeHead(status, headers);
      response.end(body);
    };
    if (path === "/robots.txt") return answer(200, { "content-type": "text/plain" }, "User-agent: *\nAllow: /\n");
    if (path === "/sitemap.xml") {
      const urls = this.listed.map((n) => `<url><loc>${this.url(`/p/${n}`)}</loc></url>`).join("");
      return answer(200, { "content-type": "application/xml" }, `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`);
    }
    const match = /^\/p\/(\d+)$/.exec(path);
    if (!match) return answer(404, { "content-type": "text/plain" }, "not found");
    const n = Number(match[1]);
    const failing = this.status.get(n);
    if (failing !== undefined) return answer(failing, { "content-type": "text/plain" }, "no");
    const version = this.version.get(n) ?? 1;
    const etag = `"p${n}-v${version}"`;
    const lastModified = new Date(Date.UTC(2026, 0, version)).toUTCString();
    const validators: Record<string, string> = n <= 10 ? { etag } : n <= 15 ? { "last-modified": lastModified } : {};
    if (n <= 10 && request.headers["if-none-match"] === etag) return answer(304, validators);
    if (n > 10 && n <= 15 && request.headers["if-modified-since"] === lastModified) return answer(304, validators);
    const body = pageWithBoilerplate(`Guide ${n}`, [
      `Guide number ${n} explains how the ${n}th trail tent is pitched, version ${version} of its instructions.`,
      `The poles of tent ${n} clip into the sleeve; version ${version} adds a storm guy line for windy ridges.`,
      `Packing tent ${n} takes four minutes once the stakes are pulled and the fly is folded in thirds.`,
    ]);
    answer(200, { "content-type": "text/html; charset=utf-8", ...validators }, body);
  }
}

describe("schedule arithmetic", () => {
  it("happy: the jitter is stable per source and spreads thousands of sources over 10 % of the interval", () => {
    const from = new Date("2026-11-24T03:00:00Z");
    expect(nextSyncAt("src_a", "daily", from)).toEqual(nextSyncAt("src_a", "daily", from));
    expect(nextSyncAt("src_a", "off", from)).toBeNull();
    const minutes = new Map<number, number>();
    for (let i = 0; i < 5000; i += 1) {
      const at = nextSyncAt(`src_${i.toString(36)}x${i}`, "hourly", from)!.getTime();
      const offset = at - from.getTime() - SCHEDULE_INTERVAL_MS.hourly;
      expect(offset).toBeGreaterThanOrEqual(0);
      expect(offset).toBeLessThan(JITTER_SHARE * SCHEDULE_INTERVAL_MS.hourly);
      const minute = Math.floor(offset / 60_000);
      minutes.set(minute, (minutes.get(minute) ?? 0) + 1);
    }
    // 5,000 hourly sources made in the same instant fall into 6 minutes, each holding about a sixth.
    expect([...minutes.keys()].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    for (const count of minutes.values()) expect(count).toBeLessThan(5000 / 6 * 1.15);
    const fractions = Array.from({ length: 1000 }, (_, i) => jitterFraction(`src_${i}`));
    expect(Math.min(...fractions)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...fractions)).toBeLessThan(1);
  });
});

describeEachStore("scheduled re-sync on %s", (kind) => {
  const site = new VersionedSite();
  const embedder = new CountingEmbedder();
  let t: TestApp;
  let tenant: Tenant;
  let token: string;
  let admin: ConsoleSession;

  beforeAll(async () => {
    await site.start();
    ({ t, tenant, token } = await startIndexingStage(kind, embedder, { responseTimeoutMs: 1500, connectTimeoutMs: 1000 }));
    admin = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "admin" });
  });
  afterAll(async () => {
    await t.close();
    await site.stop();
  });

  const push = (payload: Record<string, unknown>) =>
    t.app.inject({ method: "POST", url: SOURCES, headers: { authorization: `Bearer ${token}` }, payload: { agent_id: tenant.agentId, ...payload } });
  const patch = (id: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: "PATCH", url: `${CONSOLE}/knowledge/sources/${id}`, headers: admin.headers, payload });
  const sourceRow = async (id: string) =>
    (await t.services.db.query<{ status: string; pending: number }>(
      `SELECT s.status, (SELECT count(*)::int FROM documents d WHERE d.source_id = s.id AND d.status = 'pending') AS pending FROM sources s WHERE s.id = $1`,
      [id],
    )).rows[0]!;
  /** Waits until the source's sync has ended: not pending, no page waiting, no index job left. */
  const settle = async (id: string) => {
    for (let attempt = 0; attempt < 600; attempt += 1) {
      const row = await sourceRow(id);
      const { rows } = await t.services.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pgboss.job WHERE name IN ('index-source', 'index-page') AND state IN ('created', 'retry', 'active') AND data->>'sourceId' = $1`,
        [id],
      );
      if (row.status !== "pending" && row.pending === 0 && rows[0]!.n === 0) return row;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`source ${id} did not settle`);
  };
  const documents = async (sourceId: string) =>
    (
      await t.services.db.query<{ path: string; status: string; code: string | null; chunk_ids: string; chunk_count: number }>(
        `SELECT d.url AS path, d.status, d.error->>'code' AS code, d.chunk_count,
           coalesce((SELECT string_agg(c.id::text, ',' ORDER BY c.id) FROM chunks c WHERE c.document_id = d.id), '') AS chunk_ids
         FROM documents d WHERE d.source_id = $1 ORDER BY d.id`,
        [sourceId],
      )
    ).rows.map((row) => ({ ...row, path: new URL(row.path).pathname }));
  const jobsFor = async (sourceId: string) =>
    (await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'index-source' AND data->>'sourceId' = $1`, [sourceId])).rows[0]!.n;
  const makeDue = (sourceId: string) => t.services.db.query(`UPDATE sources SET next_sync_at = now() - interval '1 minute' WHERE id = $1`, [sourceId]);

  it("happy: a re-sync asks conditionally, re-embeds only the changed pages, adds new ones, removes the gone, keeps a 500", async () => {
    const created = await push({ kind: "sitemap", url: site.url("/sitemap.xml"), schedule: "daily" });
    expect(created.statusCode).toBe(201);
    const source = created.json().data as { id: string; schedule: string; next_sync_at: string };
    expect(source.schedule).toBe("daily");
    const due = new Date(source.next_sync_at).getTime() - Date.now();
    expect(due).toBeGreaterThan(SCHEDULE_INTERVAL_MS.daily * 0.99);
    expect(due).toBeLessThan(SCHEDULE_INTERVAL_MS.daily * (1 + JITTER_SHARE));
    await settle(source.id);
    const before = await documents(source.id);
    expect(before).toHaveLength(20);
    expect(before.every((document) => document.status === "indexed" && document.chunk_count > 0)).toBe(true);
    const chunksBefore = new Map(before.map((document) => [document.path, document.chunk_ids]));

    site.version.set(3, 2); // has an ETag
    site.version.set(17, 2); // has no validator: fetched in full, its new hash re-embeds it
    site.status.set(16, 500);
    site.status.set(18, 410);
    site.listed = [...site.listed.filter((n) => n !== 19), 21];
    site.seen = [];
    const embeddedBefore = embedder.embedded;

    await makeDue(source.id);
    const tick = await enqueueDueResyncs(t.services, { now: new Date() });
    expect(tick.enqueued).toEqual([source.id]);
    await settle(source.id);

    const after = await documents(source.id);
    const byPath = new Map(after.map((document) => [document.path, document]));
    // Removed: gone from the sitemap, and answering 410. Kept with its passages: the 500, its error counted.
    expect(byPath.has("/p/19")).toBe(false);
    expect(byPath.has("/p/18")).toBe(false);
    expect(byPath.get("/p/16")).toMatchObject({ status: "indexed", code: "http_status", chunk_ids: chunksBefore.get("/p/16") });
    // Re-embedded: exactly the two changed pages and the new one; every other page keeps its chunk rows.
    const rewritten = after.filter((document) => document.chunk_ids !== chunksBefore.get(document.path)).map((document) => document.path);
    expect(rewritten.sort()).toEqual(["/p/17", "/p/21", "/p/3"]);
    const newChunks = ["/p/3", "/p/17", "/p/21"].reduce((sum, path) => sum + byPath.get(path)!.chunk_count, 0);
    expect(embedder.embedded - embeddedBefore).toBe(newChunks);
    // The server saw the validators, and answered 304 for the 9 unchanged ETag pages and the 5 Last-Modified ones.
    const pageRequests = site.seen.filter((request) => request.path.startsWith("/p/"));
    const first = (n: number) => pageRequests.find((request) => request.path === `/p/${n}`)!;
    expect(first(1)).toMatchObject({ ifNoneMatch: '"p1-v1"', status: 304 });
    expect(first(3)).toMatchObject({ ifNoneMatch: '"p3-v1"', status: 200 });
    expect(first(12)).toMatchObject({ ifModifiedSince: new Date(Date.UTC(2026, 0, 1)).toUTCString(), status: 304 });
    expect(first(20)).toMatchObject({ ifNoneMatch: undefined, ifModifiedSince: undefined, status: 200 });
    expect(first(21)).toMatchObject({ ifNoneMatch: undefined, status: 200 });
    expect(pageRequests.filter((request) => request.status === 304)).toHaveLength(14);
    // The console reads the counts: 18 pages, one failed (the 500, still answering).
    const shown = await t.app.inject({ method: "GET", url: `${CONSOLE}/knowledge/sources/${source.id}`, headers: admin.headers });
    expect(shown.json().data.progress).toMatchObject({ pages_found: 19, pages_failed: 1, pages_pending: 0 });
    expect(shown.json().data.failed_pages).toEqual([{ url: site.url("/p/16"), error: expect.objectContaining({ code: "http_status" }), indexed_before: true }]);
    site.status.clear();
  });

  it("happy: two ticks at once enqueue one re-sync; a source still syncing is skipped and its next time moved on", async () => {
    const created = (await push({ kind: "url", url: site.url("/p/5"), schedule: "hourly" })).json().data as { id: string };
    await settle(created.id);
    await makeDue(created.id);
    const now = new Date();
    const [a, b] = await Promise.all([enqueueDueResyncs(t.services, { now }), enqueueDueResyncs(t.services, { now })]);
    expect([...a.enqueued, ...b.enqueued].filter((id) => id === created.id)).toHaveLength(1);
    expect(await jobsFor(created.id)).toBe(2); // the creation's, and one re-sync
    const next = (await t.services.db.query<{ next_sync_at: Date }>(`SELECT next_sync_at FROM sources WHERE id = $1`, [created.id])).rows[0]!.next_sync_at;
    expect(new Date(next).getTime()).toBe(nextSyncAt(created.id, "hourly", now)!.getTime());
    await settle(created.id);

    // A due source whose last sync has not ended is not enqueued again.
    await t.services.db.query(`UPDATE documents SET status = 'pending' WHERE source_id = $1`, [created.id]);
    await makeDue(created.id);
    const skipped = await enqueueDueResyncs(t.services, { now: new Date() });
    expect(skipped.enqueued).not.toContain(created.id);
    expect(skipped.skipped).toContain(created.id);
    expect(await jobsFor(created.id)).toBe(2);
    await t.services.db.query(`UPDATE documents SET status = 'indexed' WHERE source_id = $1`, [created.id]);
  });

  it("happy: due selection takes the most overdue scheduled sources up to the limit, never an `off` or a future one", async () => {
    const ids: string[] = [];
    for (let n = 6; n <= 9; n += 1) ids.push(((await push({ kind: "url", url: site.url(`/p/${n}?due`), schedule: "weekly" })).json().data as { id: string }).id);
    const off = ((await push({ kind: "url", url: site.url("/p/10?off") })).json().data as { id: string; schedule: string; next_sync_at: string | null });
    expect(off).toMatchObject({ schedule: "off", next_sync_at: null });
    for (const id of [...ids, off.id]) await settle(id);
    await t.services.db.query(`UPDATE sources SET next_sync_at = now() - make_interval(mins => $2) WHERE id = $1`, [ids[0]!, 30]);
    await t.services.db.query(`UPDATE sources SET next_sync_at = now() - make_interval(mins => $2) WHERE id = $1`, [ids[1]!, 20]);
    await t.services.db.query(`UPDATE sources SET next_sync_at = now() - make_interval(mins => $2) WHERE id = $1`, [ids[2]!, 10]);
    await t.services.db.query(`UPDATE sources SET next_sync_at = now() - interval '1 hour', schedule = 'off' WHERE id = $1`, [off.id]);
    const first = await enqueueDueResyncs(t.services, { now: new Date(), limit: 2 });
    expect(first.enqueued).toEqual([ids[0], ids[1]]);
    const second = await enqueueDueResyncs(t.services, { now: new Date(), limit: 2 });
    expect(second.enqueued).toEqual([ids[2]]);
    for (const id of ids.slice(0, 3)) await settle(id);
    if (kind === "postgres") {
      const plan = (await t.services.db.query<{ "QUERY PLAN": string }>(
        `EXPLAIN SELECT id FROM sources WHERE schedule <> 'off' AND next_sync_at <= now() ORDER BY next_sync_at LIMIT 200`,
      )).rows.map((row) => row["QUERY PLAN"]).join("\n");
      await t.services.db.query(`SET enable_seqscan = off`);
      const forced = (await t.services.db.query<{ "QUERY PLAN": string }>(
        `EXPLAIN SELECT id FROM sources WHERE schedule <> 'off' AND next_sync_at <= now() ORDER BY next_sync_at LIMIT 200`,
      )).rows.map((row) => row["QUERY PLAN"]).join("\n");
      await t.services.db.query(`RESET enable_seqscan`);
      expect(`${plan}\n${forced}`).toContain("sources_next_sync_idx");
    }
  });

  it("happy: an admin sets and clears a schedule on the console; the Sources API shows it", async () => {
    const created = (await push({ kind: "url", url: site.url("/p/2?console") })).json().data as { id: string };
    const set = await patch(created.id, { schedule: "weekly" });
    expect(set.statusCode).toBe(200);
    expect(set.json().data).toMatchObject({ id: created.id, schedule: "weekly" });
    expect(new Date(set.json().data.next_sync_at).getTime()).toBeGreaterThan(Date.now() + SCHEDULE_INTERVAL_MS.weekly * 0.99);
    const read = await t.app.inject({ method: "GET", url: `${SOURCES}/${created.id}`, headers: { authorization: `Bearer ${token}` } });
    expect(read.json().data).toMatchObject({ schedule: "weekly", next_sync_at: set.json().data.next_sync_at });
    const cleared = await patch(created.id, { schedule: "off" });
    expect(cleared.json().data).toMatchObject({ schedule: "off", next_sync_at: null });
    await settle(created.id);
  });

  it("error: a bad schedule is a 422 naming the field, on create and on the console; a text cannot have one", async () => {
    const bad = await push({ kind: "sitemap", url: site.url("/sitemap.xml?bad"), schedule: "sometimes" });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error).toMatchObject({ code: "validation_failed", fields: { schedule: expect.any(Array) } });
    const text = (await push({ kind: "text", title: "Hours", content: `We open at nine. ${Date.now()}` })).json().data as { id: string; schedule: string };
    expect(text.schedule).toBe("off");
    const onText = await patch(text.id, { schedule: "daily" });
    expect(onText.statusCode).toBe(422);
    expect(onText.json().error).toMatchObject({ code: "validation_failed", fields: { schedule: expect.any(Array) } });
    const badValue = await patch(text.id, { schedule: "monthly" });
    expect(badValue.statusCode).toBe(422);
    expect(badValue.json().error.fields).toHaveProperty("schedule");
    const agentOperator = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "agent" });
    const forbidden = await t.app.inject({ method: "PATCH", url: `${CONSOLE}/knowledge/sources/${text.id}`, headers: agentOperator.headers, payload: { schedule: "off" } });
    expect(forbidden.statusCode).toBe(403);
    const other = await seedTenant(t.services);
    const outsider = await createSignedInOperator(t, { workspaceId: other.workspaceId, role: "admin" });
    const elsewhere = await t.app.inject({ method: "PATCH", url: `${CONSOLE}/knowledge/sources/${text.id}`, headers: outsider.headers, payload: { schedule: "off" } });
    expect(elsewhere.statusCode).toBe(404);
    await settle(text.id);
  });
});
