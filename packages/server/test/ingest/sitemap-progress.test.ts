import { subscribeDomainEvents } from "../../src/subscribe-domain-events.js";
import { loadConfig } from "../../src/config/config.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdminCommand, type AdminContext } from "../../src/admin/run-admin-command.js";
import type { Database } from "../../src/db/database.js";
import { textArray } from "../../src/db/text-array.js";
import { hasPendingDocuments, upsertDocuments } from "../../src/ingest/document-repository.js";
import { refreshSitemapProgress, SITEMAP_COUNTS_EVERY_MS, SITEMAP_COUNTS_MS_PER_PAGE, SitemapCountsThrottle } from "../../src/ingest/refresh-sitemap-progress.js";
import { startJobQueue, type JobQueue } from "../../src/jobs/job-queue.js";
import { describeUrlSource } from "../../src/sources/create-source.js";
import { insertSourceUnlessDuplicate } from "../../src/sources/source-repository.js";
import { plansOf } from "../support/query-plans.js";
import { createTestDatabase, describeEachStore, type TestDatabase } from "../support/test-database.js";

describe("SitemapCountsThrottle", () => {
  it("happy: a sitemap is counted at its first page, then every 250 ms or every twentieth of its pages, and afresh once forgotten", () => {
    let now = 1_000;
    const throttle = new SitemapCountsThrottle(() => now);
    expect(throttle.due("src_a")).toBe(true);
    throttle.counted("src_a", 100);
    // Four pages end within 250 ms: not due; the fifth (a twentieth of 100) is.
    expect([1, 2, 3, 4].map(() => throttle.due("src_a"))).toEqual([false, false, false, false]);
    expect(throttle.due("src_a")).toBe(true);
    now += SITEMAP_COUNTS_EVERY_MS - 1;
    expect(throttle.due("src_a")).toBe(false);
    expect(throttle.due("src_b")).toBe(true);
    now += 1;
    expect(throttle.due("src_a")).toBe(true);
    throttle.forget("src_a");
    expect(throttle.due("src_a")).toBe(true);
    // A sitemap another process settled (never forgotten here) is dropped once a minute has passed without a count.
    now += 60_000;
    expect(throttle.due("src_d")).toBe(true);
    expect(throttle.size).toBe(1);
    // A small sitemap is counted after every page.
    throttle.counted("src_c", 10);
    expect(throttle.due("src_c")).toBe(true);
    throttle.counted("src_c", 10);
    expect(throttle.due("src_c")).toBe(true);
  });

  it("happy: a large sitemap is counted less often, after a time that grows with its pages (5 s for 100,000), or a twentieth of them", () => {
    let now = 1_000;
    const throttle = new SitemapCountsThrottle(() => now);
    expect(throttle.due("src_big")).toBe(true);
    throttle.counted("src_big", 100_000);
    expect(100_000 * SITEMAP_COUNTS_MS_PER_PAGE).toBe(5_000);
    now += SITEMAP_COUNTS_EVERY_MS;
    expect(throttle.due("src_big")).toBe(false);
    now += 5_000 - SITEMAP_COUNTS_EVERY_MS - 1;
    expect(throttle.due("src_big")).toBe(false);
    now += 1;
    expect(throttle.due("src_big")).toBe(true);
    throttle.counted("src_big", 100_000);
    // 5,000 pages ending (a twentieth) make it due however soon.
    for (let page = 1; page < 5_000; page += 1) expect(throttle.due("src_big")).toBe(false);
    expect(throttle.due("src_big")).toBe(true);
  });

  it("error: a count reported for a sitemap this process forgot is ignored; its next page counts afresh", () => {
    const throttle = new SitemapCountsThrottle(() => 1_000);
    throttle.counted("src_gone", 100_000);
    expect(throttle.size).toBe(0);
    expect(throttle.due("src_gone")).toBe(true);
  });
});

describeEachStore("a sitemap's progress on %s", (kind) => {
  let store: TestDatabase;
  let db: Database;
  let jobs: JobQueue;
  let admin: AdminContext;
  let workspaceId: string;
  let agentId: string;
  let sitemap = 0;

  async function newSitemap(pages: number): Promise<{ sourceId: string; documentIds: number[] }> {
    const url = `https://shop.example/sitemap-${(sitemap += 1)}.xml`;
    const source = await insertSourceUnlessDuplicate(db, describeUrlSource({ workspaceId, agentId, kind: "sitemap", url, schedule: "off", now: new Date() }));
    const documentIds = await upsertDocuments(db, source!, Array.from({ length: pages }, (_, i) => `https://shop.example/s${sitemap}/p${i}`));
    return { sourceId: source!.id, documentIds };
  }
  const setStatus = (ids: number[], status: "indexed" | "failed") =>
    db.query(`UPDATE documents SET status = $2 WHERE id = ANY($1::bigint[])`, [textArray(ids.map(String)), status]);
  const sourceRow = async (id: string) =>
    (await db.query<{ status: string; config: Record<string, unknown> }>(`SELECT status, config FROM sources WHERE id = $1`, [id])).rows[0]!;

  beforeAll(async () => {
    store = await createTestDatabase(kind);
    db = store.db;
    jobs = await startJobQueue(db);
    admin = { db, jobs: async () => jobs, publicUrl: "https://frontdesk.example" };
    workspaceId = ((await runAdminCommand(admin, { command: "workspace.create", name: "Shop" })) as { id: string }).id;
    agentId = ((await runAdminCommand(admin, { command: "agent.create", workspaceId, name: "Bot", origins: ["https://shop.example"] })) as { id: string }).id;
  });
  afterAll(async () => {
    await jobs.stop();
    await store.drop();
  });

  it("happy: between two counts a page only asks whether one is pending; the last page settles the source whatever the time", async () => {
    const now = 0;
    const throttle = new SitemapCountsThrottle(() => now);
    const { sourceId, documentIds } = await newSitemap(40);

    const first = await refreshSitemapProgress(db, subscribeDomainEvents(jobs, loadConfig({})), sourceId, throttle);
    expect(first).toEqual({ state: "pending", counts: { found: 40, pending: 40, indexed: 0, failed: 0 } });
    expect((await sourceRow(sourceId)).config).toMatchObject({ pages_found: 40, pages_indexed: 0, pages_failed: 0 });

    // A twentieth of 40 is 2: the first page ended since is not counted, the second is.
    await setStatus([documentIds[0]!], "indexed");
    expect(await refreshSitemapProgress(db, subscribeDomainEvents(jobs, loadConfig({})), sourceId, throttle)).toEqual({ state: "pending", counts: null });
    expect((await sourceRow(sourceId)).config).toMatchObject({ pages_indexed: 0 });
    await setStatus([documentIds[1]!], "indexed");
    expect((await refreshSitemapProgress(db, subscribeDomainEvents(jobs, loadConfig({})), sourceId, throttle)).counts).toEqual({ found: 40, pending: 38, indexed: 2, failed: 0 });
    expect((await sourceRow(sourceId)).config).toMatchObject({ pages_indexed: 2 });

    await setStatus(documentIds.slice(2, 39), "indexed");
    await setStatus([documentIds[39]!], "failed");
    expect(await refreshSitemapProgress(db, subscribeDomainEvents(jobs, loadConfig({})), sourceId, throttle)).toEqual({ state: "indexed", counts: { found: 40, pending: 0, indexed: 39, failed: 1 } });
    expect(await sourceRow(sourceId)).toMatchObject({ status: "indexed", config: { pages_found: 40, pages_indexed: 39, pages_failed: 1 } });
  });

  it("error: a sitemap whose every page failed is settled failed by its last page, counted or not", async () => {
    const throttle = new SitemapCountsThrottle(() => 0);
    const { sourceId, documentIds } = await newSitemap(40);
    expect((await refreshSitemapProgress(db, subscribeDomainEvents(jobs, loadConfig({})), sourceId, throttle)).state).toBe("pending");
    await setStatus(documentIds, "failed");
    expect(await refreshSitemapProgress(db, subscribeDomainEvents(jobs, loadConfig({})), sourceId, throttle)).toEqual({ state: "failed", counts: { found: 40, pending: 0, indexed: 0, failed: 40 } });
    expect((await sourceRow(sourceId)).status).toBe("failed");
  });

  it("happy: whether a page is pending is read through documents_pending_idx, among thousands of other documents", async () => {
    const { sourceId } = await newSitemap(5);
    for (let i = 0; i < 4; i += 1) {
      const other = await newSitemap(1_000);
      await setStatus(other.documentIds, "indexed");
    }
    await db.query(`ANALYZE documents`);
    let pending: boolean | undefined;
    const nodes = await plansOf(db, async (tx) => {
      pending = await hasPendingDocuments(tx, sourceId);
    });
    expect(pending).toBe(true);
    expect(nodes.map((node) => node["Index Name"]).filter(Boolean)).toContain("documents_pending_idx");
    expect(nodes.filter((node) => node["Node Type"] === "Seq Scan")).toEqual([]);
  }, 60_000);
});
