import { afterAll, beforeAll, expect, it } from "vitest";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import { LoopbackSite } from "../support/loopback-site.js";
import { adminOf, type Tenant } from "../support/seed.js";
import { startIndexingStage } from "../support/indexing-stage.js";
import type { TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { CountingEmbedder } from "../support/counting-embedder.js";

const SOURCES = "/api/v1/workspace/sources";

describeEachStore("indexing pipeline on %s", (kind) => {
  const site = new LoopbackSite();
  const embedder = new CountingEmbedder();
  let t: TestApp;
  let tenant: Tenant;
  let token: string;

  beforeAll(async () => {
    await site.start();
    ({ t, tenant, token } = await startIndexingStage(kind, embedder, { responseTimeoutMs: 1500, connectTimeoutMs: 1000 }));
  });
  afterAll(async () => {
    await t.close();
    await site.stop();
  });

  const push = async (payload: Record<string, unknown>) => {
    const response = await t.app.inject({
      method: "POST",
      url: SOURCES,
      headers: { authorization: `Bearer ${token}` },
      payload: { agent_id: tenant.agentId, ...payload },
    });
    expect([200, 201]).toContain(response.statusCode);
    return response.json().data as { id: string; status: string };
  };
  const get = async (id: string) =>
    (await t.app.inject({ method: "GET", url: `${SOURCES}/${id}`, headers: { authorization: `Bearer ${token}` } })).json().data as {
      id: string;
      status: string;
      config: Record<string, unknown>;
      error: { code: string; message: string } | null;
      last_synced_at: string | null;
    };
  /** Polls until the source leaves `pending` (or until `until` holds). */
  const settle = async (id: string, until: (source: Awaited<ReturnType<typeof get>>) => boolean = (s) => s.status !== "pending") => {
    for (let attempt = 0; attempt < 300; attempt += 1) {
      const source = await get(id);
      if (until(source)) return source;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`source ${id} did not settle: ${JSON.stringify(await get(id))}`);
  };
  const chunksOf = async (sourceId: string) =>
    (
      await t.services.db.query<{ id: number; url: string; content: string; heading: string | null; title: string; embedder: string; has_tsv: boolean }>(
        `SELECT c.id::int AS id, d.url, c.content, c.heading, c.title, c.embedder, c.search_vector IS NOT NULL AND length(c.search_vector) > 0 AS has_tsv
         FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.source_id = $1 ORDER BY c.id`,
        [sourceId],
      )
    ).rows;

  it("happy: a text push is chunked, embedded and indexed, cited by its source_url", async () => {
    const source = await push({
      kind: "text",
      title: "Gift cards",
      content: "Gift cards never expire.\n\nThey can be used online and in every store. Lost cards can be replaced with the receipt.",
      source_url: "https://shop.example.com/gift-cards",
    });
    const indexed = await settle(source.id);
    expect(indexed.status).toBe("indexed");
    expect(indexed.error).toBeNull();
    expect(indexed.last_synced_at).not.toBeNull();
    const chunks = await chunksOf(source.id);
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks[0]).toMatchObject({ url: "https://shop.example.com/gift-cards", title: "Gift cards", embedder: "hashing:v1:384", has_tsv: true });
    expect(chunks.map((chunk) => chunk.content).join(" ")).toContain("Gift cards never expire.");
  });

  it("happy: a URL is crawled, its boilerplate dropped, its title and headings kept", async () => {
    const source = await push({ kind: "url", url: site.url("/docs/returns") });
    expect((await settle(source.id)).status).toBe("indexed");
    const chunks = await chunksOf(source.id);
    const text = chunks.map((chunk) => chunk.content).join("\n");
    expect(text).toContain("return unused gear within 60 days");
    for (const boilerplate of ["Accept all cookies", "Shop all tents", "All rights reserved", "tracking pixel", "Sleeping bags on sale"]) {
      expect(text).not.toContain(boilerplate);
    }
    expect(chunks[0]!.title).toContain("Returns");
    expect(chunks.some((chunk) => chunk.heading === "Details" || chunk.content.includes("Details"))).toBe(true);
  });

  it("happy: a sitemap index pointing at a gzip sitemap fans out; every page is indexed or failed for its reason", async () => {
    const source = await push({ kind: "sitemap", url: site.url("/sitemap_index.xml") });
    const settled = await settle(source.id);
    expect(settled.status).toBe("indexed");
    expect(settled.config).toMatchObject({ pages_found: 8, pages_indexed: 3, pages_failed: 5, skipped_foreign_host: 1 });
    const { rows } = await t.services.db.query<{ url: string; status: string; code: string | null }>(
      `SELECT url, status, error->>'code' AS code FROM documents WHERE source_id = $1 ORDER BY url`,
      [source.id],
    );
    const byPath = Object.fromEntries(rows.map((row) => [new URL(row.url).pathname, row]));
    expect(byPath["/docs/shipping"]).toMatchObject({ status: "indexed", code: null });
    expect(byPath["/docs/warranty"]).toMatchObject({ status: "indexed", code: null });
    expect(byPath["/private/secret"]).toMatchObject({ status: "failed", code: "robots_disallowed" });
    expect(byPath["/file.pdf"]).toMatchObject({ status: "failed", code: "not_html" });
    expect(byPath["/huge"]).toMatchObject({ status: "failed", code: "too_large" });
    expect(byPath["/slow"]).toMatchObject({ status: "failed", code: "fetch_failed" });
    expect(byPath["/redirect-private"]).toMatchObject({ status: "failed", code: "blocked_address" });
    expect(rows.some((row) => row.url.includes("elsewhere.example.net"))).toBe(false);
    expect(site.requests).not.toContain("/private/secret");
    // Each page is its own document, cited by its own URL.
    const chunks = await chunksOf(source.id);
    expect(new Set(chunks.map((chunk) => new URL(chunk.url).pathname))).toEqual(new Set(["/docs/shipping", "/docs/returns", "/docs/warranty"]));
  });

  it.each([
    ["/private/page", "robots_disallowed"],
    ["/redirect-private", "blocked_address"],
    ["/file.pdf", "not_html"],
    ["/nowhere", "http_status"],
  ])("error: a URL source at %s fails with %s and can be pushed again", async (path, code) => {
    const source = await push({ kind: "url", url: site.url(path) });
    const failed = await settle(source.id);
    expect(failed.status).toBe("failed");
    expect(failed.error).toEqual({ code, message: expect.any(String) });
    expect(failed.last_synced_at).toBeNull();
    const again = await push({ kind: "url", url: site.url(path) });
    expect(again).toMatchObject({ id: source.id, status: "pending" });
    expect((await settle(source.id)).error?.code).toBe(code);
  });

  it("happy: a re-sync keeps the source indexed, re-embeds nothing when the page is unchanged, and swaps chunks atomically when it changed", async () => {
    site.changingVersion = 1;
    const source = await push({ kind: "url", url: site.url("/changing") });
    const first = await settle(source.id);
    expect(first.status).toBe("indexed");
    const before = await chunksOf(source.id);
    expect(before.map((chunk) => chunk.content).join(" ")).toContain("opens at nine");

    // Unchanged page: same chunks (same ids), nothing embedded.
    const embeddedBefore = embedder.embedded;
    const resync = await push({ kind: "url", url: site.url("/changing") });
    expect(resync.status).toBe("indexed");
    const unchanged = await settle(source.id, (s) => s.last_synced_at !== first.last_synced_at);
    expect(embedder.embedded).toBe(embeddedBefore);
    expect((await chunksOf(source.id)).map((chunk) => chunk.id)).toEqual(before.map((chunk) => chunk.id));

    // Changed page: while it re-syncs, a reader only ever sees all the old chunks or all the new ones.
    site.changingVersion = 2;
    const oldIds = new Set(before.map((chunk) => chunk.id));
    const observations: string[] = [];
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const ids = (await chunksOf(source.id)).map((chunk) => chunk.id);
        const old = ids.filter((id) => oldIds.has(id)).length;
        observations.push(ids.length === 0 ? "none" : old === ids.length ? "old" : old === 0 ? "new" : "mixed");
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const synced = await push({ kind: "url", url: site.url("/changing") });
    expect(synced.status).toBe("indexed");
    // last_synced_at moves only after the new chunks are committed.
    const second = await settle(source.id, (s) => s.last_synced_at !== unchanged.last_synced_at);
    watching = false;
    await watcher;
    expect(second.status).toBe("indexed");
    expect(observations).not.toContain("none");
    expect(observations).not.toContain("mixed");
    const after = await chunksOf(source.id);
    expect(after.map((chunk) => chunk.content).join(" ")).toContain("opens at seven");
    expect(after.some((chunk) => oldIds.has(chunk.id))).toBe(false);
    const orphans = await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM chunks c LEFT JOIN documents d ON d.id = c.document_id WHERE d.id IS NULL`);
    expect(orphans.rows[0]!.n).toBe(0);
  });

  it("happy: reindex re-embeds chunks made by another embedder from the stored text", async () => {
    const source = await push({ kind: "text", content: `Loyalty points are worth one penny each. ${kind}` });
    await settle(source.id);
    await t.services.db.query(
      `UPDATE chunks SET embedder = 'hashing:old' WHERE document_id IN (SELECT id FROM documents WHERE source_id = $1)`,
      [source.id],
    );
    const result = (await runAdminCommand(adminOf(t.services), { command: "reindex", agentId: tenant.agentId })) as { scheduled: number };
    expect(result.scheduled).toBeGreaterThan(0);
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const chunks = await chunksOf(source.id);
      if (chunks.every((chunk) => chunk.embedder === embedder.id)) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error("chunks were not re-embedded");
  });
});
