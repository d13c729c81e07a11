import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import { loadConfig } from "../../src/config/config.js";
import type { BusEvent } from "../../src/realtime/event-bus.js";
import { adminOf, bearer, seedTenant, SITE_ORIGIN, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { indexesOf, plansOf, scansOf } from "../support/query-plans.js";
import { findPostsToIndex, listPostDocumentIds, lockPostsOfDocuments } from "../../src/wordpress/post-index-repository.js";
import { findWordpressSource } from "../../src/sources/sources.js";
import { countPosts, findStoredPosts, findUrlHolders, listFailedPosts } from "../../src/wordpress/wordpress-post-repository.js";
import { CountingEmbedder } from "../support/counting-embedder.js";

const WP = "/api/v1/wp";
const POSTS = 1000;
const BATCH = 100;

/** The hashing embedder, counting the texts it is asked to embed. */
interface Post {
  post_id: number;
  url: string;
  title: string;
  content: string;
  modified_at: string;
  status: string;
  type: string;
}

/** A small post, so that 1,000 of them index quickly; `version` changes its text. */
const post = (id: number, version = 1, overrides: Partial<Post> = {}): Post => ({
  post_id: id,
  url: `${SITE_ORIGIN}/blog/post-${id}`,
  title: `Post ${id}`,
  content: `<p>Post ${id} explains topic ${id} in version ${version} of its text.</p>`,
  modified_at: `2026-01-0${version}T10:00:00+00:00`,
  status: "publish",
  type: "post",
  ...overrides,
});

describe("WordPress sync configuration", () => {
  it("happy: 60 requests a minute per token by default, FRONTDESK_RATE_LIMIT_WP_PER_MINUTE overrides it", () => {
    expect(loadConfig({}).rateLimits.wordpress).toEqual({ points: 60, windowSeconds: 60 });
    expect(loadConfig({ FRONTDESK_RATE_LIMIT_PROFILE: "high" }).rateLimits.wordpress.points).toBe(60);
    expect(loadConfig({ FRONTDESK_RATE_LIMIT_WP_PER_MINUTE: "7" }).rateLimits.wordpress).toEqual({ points: 7, windowSeconds: 60 });
  });
});

describeEachStore("WordPress bulk sync (/api/v1/wp) on %s", (kind) => {
  const embedder = new CountingEmbedder();
  let t: TestApp;
  let tenant: Tenant;
  let outsider: Tenant;
  let token: string;

  const createToken = async (workspaceId: string, abilities: string[]) =>
    ((await runAdminCommand(adminOf(t.services), { command: "token.create", workspaceId, name: abilities.join("+"), abilities: abilities as ["wp:sync"] })) as { token: string }).token;
  const push = (posts: unknown[], as = token, agentId = tenant.agentId) =>
    t.app.inject({ method: "POST", url: `${WP}/posts`, headers: bearer(as), payload: { agent_id: agentId, posts } });
  const status = async (as = token) => {
    const response = await t.app.inject({ method: "GET", url: `${WP}/status?agent_id=${tenant.agentId}`, headers: bearer(as) });
    expect(response.statusCode).toBe(200);
    return response.json().data;
  };
  const sql = async <Row>(text: string, params: (string | number)[] = []) => (await t.services.db.query<Row>(text, params)).rows;
  /** Waits until the indexing jobs are done and no document of the agent is pending (observed in the store, not timed). */
  const settled = async () => {
    for (let attempt = 0; attempt < 4000; attempt += 1) {
      const [row] = await sql<{ pending: number; running: number }>(
        `SELECT (SELECT count(*)::int FROM documents WHERE agent_id = $1 AND status = 'pending') AS pending,
           (SELECT count(*)::int FROM pgboss.job WHERE name IN ('index-wordpress-posts', 'index-source') AND state IN ('created', 'retry', 'active')) AS running`,
        [tenant.agentId],
      );
      if (row!.pending === 0 && row!.running === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error("the posts were not indexed");
  };
  const jobs = () =>
    sql<{ document_ids: number }>(
      `SELECT coalesce(sum(jsonb_array_length(data->'documentIds')), 0)::int AS document_ids FROM
         (SELECT data FROM pgboss.job WHERE name = 'index-wordpress-posts' UNION ALL SELECT data FROM pgboss.archive WHERE name = 'index-wordpress-posts') AS all_jobs`,
    ).then((rows) => rows[0]!.document_ids);
  const chunksOfPost = (postId: number) =>
    sql<{ id: number; content: string }>(
      `SELECT c.id::int AS id, c.content FROM chunks c JOIN wordpress_posts p ON p.document_id = c.document_id
       WHERE p.agent_id = $1 AND p.post_id = $2 ORDER BY c.id`,
      [tenant.agentId, postId],
    );

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { embedder, workers: {} });
    tenant = await seedTenant(t.services);
    outsider = await seedTenant(t.services);
    token = await createToken(tenant.workspaceId, ["wp:sync"]);
  });
  afterAll(() => t.close());

  it("happy: 1,000 posts pushed in 10 batches are indexed; pushing them again with 10 changed re-embeds only those 10", async () => {
    for (let start = 1; start <= POSTS; start += BATCH) {
      const response = await push(Array.from({ length: BATCH }, (_, i) => post(start + i)));
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toMatchObject({ received: BATCH, queued: BATCH, unchanged: 0, removed: 0, rejected: 0 });
    }
    await settled();
    const first = await status();
    expect(first).toMatchObject({ syncing: false, source_status: "indexed", posts: { total: POSTS, indexed: POSTS, pending: 0, failed: 0, unpublished: 0 } });
    expect(first.last_indexed_at).not.toBeNull();
    const [indexed] = await sql<{ documents: number; chunks: number }>(
      `SELECT count(DISTINCT d.id)::int AS documents, count(c.id)::int AS chunks FROM documents d JOIN chunks c ON c.document_id = d.id WHERE d.source_id = $1`,
      [first.source_id],
    );
    expect(indexed).toEqual({ documents: POSTS, chunks: expect.any(Number) });
    expect(embedder.embedded).toBe(indexed!.chunks);
    expect(await jobs()).toBe(POSTS);
    const untouchedChunks = await chunksOfPost(2);

    const changed = new Set(Array.from({ length: 10 }, (_, i) => 5 + i * BATCH));
    const embeddedBefore = embedder.embedded;
    for (let start = 1; start <= POSTS; start += BATCH) {
      // Posts 1 to 3 say they were modified, with the same text: not re-indexed either.
      const batch = Array.from({ length: BATCH }, (_, i) => start + i).map((id) =>
        changed.has(id) ? post(id, 2) : id <= 3 ? post(id, 1, { modified_at: "2026-02-01T08:00:00Z" }) : post(id),
      );
      const response = await push(batch);
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toMatchObject({ queued: 1, unchanged: BATCH - 1, rejected: 0 });
    }
    expect(await jobs()).toBe(POSTS + changed.size);
    await settled();
    const changedChunks = await sql<{ chunks: number }>(
      `SELECT count(*)::int AS chunks FROM chunks c JOIN wordpress_posts p ON p.document_id = c.document_id
       WHERE p.agent_id = $1 AND p.post_id IN (SELECT (jsonb_array_elements_text($2::jsonb))::bigint)`,
      [tenant.agentId, JSON.stringify([...changed])],
    );
    expect(embedder.embedded - embeddedBefore).toBe(changedChunks[0]!.chunks);
    expect((await chunksOfPost(105)).map((chunk) => chunk.content).join(" ")).toContain("version 2");
    expect(await chunksOfPost(2)).toEqual(untouchedChunks);
    const [touched] = await sql<{ modified_at: Date }>(`SELECT modified_at FROM wordpress_posts WHERE agent_id = $1 AND post_id = 1`, [tenant.agentId]);
    expect(new Date(touched!.modified_at).toISOString()).toBe("2026-02-01T08:00:00.000Z");
  }, 240_000);

  it("happy: every query of the sync reads through an index, never a whole table (1,000 posts, planner statistics up to date)", async () => {
    await t.services.db.query(`ANALYZE`);
    const { source_id: sourceId } = await status();
    const [{ id: documentId }] = (await sql<{ id: number }>(`SELECT document_id::int AS id FROM wordpress_posts WHERE agent_id = $1 AND post_id = 500`, [tenant.agentId])) as [{ id: number }];
    const nodes = await plansOf(
      t.services.db,
      async (tx) => {
        await findStoredPosts(tx, tenant.agentId, [1, 2, 500]);
        await findUrlHolders(tx, sourceId, [`${SITE_ORIGIN}/blog/post-10`]);
        await findWordpressSource(tx, tenant.agentId);
        await countPosts(tx, tenant.agentId);
        await listFailedPosts(tx, tenant.agentId, 50);
        await findPostsToIndex(tx, [documentId]);
        await lockPostsOfDocuments(tx, [documentId]);
        await listPostDocumentIds(tx, sourceId);
      },
      ["SET LOCAL enable_seqscan = off"],
    );
    expect(scansOf(nodes, ["wordpress_posts", "documents", "sources", "chunks", "agents"])).toEqual([]);
    // Which index serves a source's posts is the planner's choice: with every post in one source it may
    // read them in document order through wordpress_posts_document_idx rather than through
    // wordpress_posts_source_idx and a sort. Either is an index read; the scans above are what must hold.
    expect(indexesOf(nodes)).toEqual(expect.arrayContaining(["wordpress_posts_pkey", "wordpress_posts_document_idx", "sources_agent_wordpress_idx"]));
  });

  it("happy: the Knowledge screen hears source.updated for the wordpress source, up to its settled counts", async () => {
    const { source_id: sourceId } = await status();
    const updates = () => t.published.filter((event): event is Extract<BusEvent, { type: "source.updated" }> => event.type === "source.updated" && event.sourceId === sourceId);
    // The worker announces after its last job committed; wait for that announcement rather than for a time.
    for (let attempt = 0; attempt < 200 && updates().at(-1)?.syncing !== false; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(updates().some((event) => event.syncing)).toBe(true);
    expect(updates().at(-1)).toMatchObject({ workspaceId: tenant.workspaceId, agentId: tenant.agentId, status: "indexed", syncing: false, progress: { indexed: POSTS, pending: 0 } });
    const [source] = await sql<{ kind: string; config: Record<string, unknown> }>(`SELECT kind, config FROM sources WHERE id = $1`, [sourceId]);
    expect(source).toMatchObject({ kind: "wordpress", config: { pages_found: POSTS, pages_indexed: POSTS } });
  });

  it("happy: a status other than publish takes the post out of the knowledge and keeps none of its text; publishing it again brings it back", async () => {
    const drafted = await push([post(7, 3, { status: "draft" }), post(8, 1, { status: "trash" })]);
    expect(drafted.statusCode).toBe(200);
    expect(drafted.json().data.results).toEqual([
      { index: 0, post_id: 7, result: "removed" },
      { index: 1, post_id: 8, result: "removed" },
    ]);
    expect(await chunksOfPost(7)).toEqual([]);
    const [row] = await sql<{ document_id: number | null; content: string | null; post_status: string }>(
      `SELECT document_id, content, post_status FROM wordpress_posts WHERE agent_id = $1 AND post_id = 7`,
      [tenant.agentId],
    );
    expect(row).toEqual({ document_id: null, content: null, post_status: "draft" });
    expect((await status()).posts).toMatchObject({ total: POSTS, indexed: POSTS - 2, unpublished: 2 });

    const republished = await push([post(7, 3)]);
    expect(republished.json().data.results).toEqual([{ index: 0, post_id: 7, result: "queued" }]);
    await settled();
    expect((await chunksOfPost(7)).map((chunk) => chunk.content).join(" ")).toContain("version 3");
  }, 60_000);

  it("happy: DELETE forgets the post and its chunks at once; deleting it again is 204 too", async () => {
    const del = () => t.app.inject({ method: "DELETE", url: `${WP}/posts/9?agent_id=${tenant.agentId}`, headers: bearer(token) });
    const response = await del();
    expect(response.statusCode).toBe(204);
    expect(await chunksOfPost(9)).toEqual([]);
    expect(await sql(`SELECT 1 FROM wordpress_posts WHERE agent_id = $1 AND post_id = 9`, [tenant.agentId])).toEqual([]);
    expect(await sql(`SELECT 1 FROM documents WHERE url = $1`, [`${SITE_ORIGIN}/blog/post-9`])).toEqual([]);
    expect((await del()).statusCode).toBe(204);
    const bad = await t.app.inject({ method: "DELETE", url: `${WP}/posts/nine?agent_id=${tenant.agentId}`, headers: bearer(token) });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().error.fields)).toEqual(["params.post_id"]);
  });

  it("happy: status counts posts by state and lists the failed ones with why", async () => {
    const empty = await push([post(5000, 1, { content: "<p>   </p>" })]);
    expect(empty.json().data.queued).toBe(1);
    await settled();
    const now = await status();
    expect(now).toMatchObject({
      agent_id: tenant.agentId,
      syncing: false,
      source_status: "indexed",
      posts: { total: POSTS, indexed: POSTS - 2, failed: 1, pending: 0, unpublished: 1 },
      failed_posts: [{ post_id: 5000, url: `${SITE_ORIGIN}/blog/post-5000`, error: { code: "empty_content", message: expect.any(String) } }],
    });
    expect(Date.parse(now.last_push_at)).not.toBeNaN();
    // A failed post pushed again unchanged is tried again (it is not `unchanged`).
    expect((await push([post(5000, 1, { content: "<p>   </p>" })])).json().data.queued).toBe(1);
    await settled();
  }, 60_000);

  it("error: each bad post is rejected with its index and fields, the good ones are kept", async () => {
    const tooLong = "x".repeat(1024 * 1024 + 1);
    const batch: unknown[] = [
      post(6001),
      { ...post(6002), url: undefined },
      post(6003, 1, { url: "ftp://shop.example.com/a" }),
      post(6004, 1, { title: "t".repeat(501) }),
      post(6005, 1, { content: tooLong }),
      { ...post(6006), post_id: "6006", modified_at: "yesterday" },
      post(6007),
      post(6007, 2),
      "not a post",
      post(6009, 1, { url: `${SITE_ORIGIN}/blog/post-10` }),
      post(6010, 1, { url: "https://elsewhere.example.org/p" }),
      post(6011, 1, { modified_at: "2026-01-01T10:00:00+23:59" }),
      post(6012, 1, { modified_at: "0000-01-01T00:00:00Z" }),
    ];
    const response = await push(batch);
    expect(response.statusCode).toBe(200);
    const data = response.json().data;
    expect(data).toMatchObject({ received: 13, queued: 3, rejected: 10 });
    const fieldsOf = (index: number) => {
      const result = data.results[index];
      expect(result).toMatchObject({ index, result: "rejected", error: { code: "validation_failed" } });
      return Object.keys(result.error.fields);
    };
    expect(data.results[0]).toEqual({ index: 0, post_id: 6001, result: "queued" });
    expect(fieldsOf(1)).toEqual(["posts.1.url"]);
    expect(fieldsOf(2)).toEqual(["posts.2.url"]);
    expect(fieldsOf(3)).toEqual(["posts.3.title"]);
    expect(fieldsOf(4)).toEqual(["posts.4.content"]);
    expect(fieldsOf(5).sort()).toEqual(["posts.5.modified_at", "posts.5.post_id"]);
    expect(data.results[5].post_id).toBeNull();
    expect(fieldsOf(6)).toEqual(["posts.6.post_id"]);
    expect(fieldsOf(7)).toEqual(["posts.7.post_id"]);
    expect(fieldsOf(8)).toEqual(["posts.8"]);
    expect(fieldsOf(9)).toEqual(["posts.9.url"]);
    expect(data.results[9].error.fields["posts.9.url"][0]).toContain("post 10");
    expect(data.results[10]).toMatchObject({ index: 10, post_id: 6010, result: "queued", warning: expect.stringContaining("allowed origins") });
    // Any offset JavaScript reads is kept as the same instant in UTC (Postgres refuses offsets beyond ±15:59).
    expect(data.results[11]).toEqual({ index: 11, post_id: 6011, result: "queued" });
    expect(fieldsOf(12)).toEqual(["posts.12.modified_at"]);
    const stored = await sql<{ post_id: number; modified_at: Date }>(
      `SELECT post_id::int AS post_id, modified_at FROM wordpress_posts WHERE agent_id = $1 AND post_id > 6000 ORDER BY post_id`,
      [tenant.agentId],
    );
    expect(stored.map((row) => row.post_id)).toEqual([6001, 6010, 6011]);
    expect(new Date(stored[2]!.modified_at).toISOString()).toBe("2025-12-31T10:01:00.000Z");
    await settled();
  }, 60_000);

  it("error: a batch with no good post is 422 with every post's fields; over 100 posts, or none, is 422 and nothing is stored", async () => {
    const allBad = await push([{ ...post(7001), title: 12 }, { post_id: -1 }]);
    expect(allBad.statusCode).toBe(422);
    expect(allBad.json().error).toMatchObject({ code: "validation_failed", fields: { "posts.0.title": expect.any(Array), "posts.1.post_id": expect.any(Array), "posts.1.url": expect.any(Array) } });
    const tooMany = await push(Array.from({ length: BATCH + 1 }, (_, i) => post(8000 + i)));
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().error.fields.posts[0]).toContain("at most 100");
    expect((await push([])).statusCode).toBe(422);
    const missingAgent = await t.app.inject({ method: "POST", url: `${WP}/posts`, headers: bearer(token), payload: { posts: [post(7002)] } });
    expect(missingAgent.json().error.fields).toHaveProperty("agent_id");
    expect(await sql(`SELECT 1 FROM wordpress_posts WHERE agent_id = $1 AND post_id >= 7000`, [tenant.agentId])).toEqual([]);
  });

  it("security: no token is 401, a token without wp:sync is 403, another workspace's agent is 404; nothing is stored", async () => {
    const sourcesOnly = await createToken(tenant.workspaceId, ["sources:write", "sources:read"]);
    const none = await t.app.inject({ method: "POST", url: `${WP}/posts`, payload: { agent_id: tenant.agentId, posts: [post(9001)] } });
    expect(none.statusCode).toBe(401);
    expect(none.json().error.code).toBe("missing_token");
    for (const [method, url] of [["POST", `${WP}/posts`], ["GET", `${WP}/status?agent_id=${tenant.agentId}`], ["DELETE", `${WP}/posts/1?agent_id=${tenant.agentId}`]] as const) {
      const refused = await t.app.inject({ method, url, headers: bearer(sourcesOnly), ...(method === "POST" ? { payload: { agent_id: tenant.agentId, posts: [post(9001)] } } : {}) });
      expect(refused.statusCode, `${method} ${url}`).toBe(403);
      expect(refused.json().error).toEqual({ code: "missing_ability", message: expect.stringContaining("wp:sync") });
    }
    const foreign = await push([post(9001)], token, outsider.agentId);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe("agent_not_found");
    expect((await t.app.inject({ method: "GET", url: `${WP}/status?agent_id=${outsider.agentId}`, headers: bearer(token) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: "DELETE", url: `${WP}/posts/1?agent_id=${outsider.agentId}`, headers: bearer(token) })).statusCode).toBe(404);
    expect(await sql(`SELECT 1 FROM wordpress_posts WHERE post_id = 9001 OR agent_id = $1`, [outsider.agentId])).toEqual([]);
    expect(await chunksOfPost(1)).not.toEqual([]);
  });

  it("security: 60 requests a minute per token; the 61st is 429 with Retry-After and the X-RateLimit-* headers", async () => {
    const limited = await createToken(tenant.workspaceId, ["wp:sync"]);
    for (let request = 1; request <= 60; request += 1) {
      const response = await t.app.inject({ method: "GET", url: `${WP}/status?agent_id=${tenant.agentId}`, headers: bearer(limited) });
      expect(response.statusCode).toBe(200);
      expect(response.headers["x-ratelimit-limit"]).toBe("60");
      expect(response.headers["x-ratelimit-remaining"]).toBe(String(60 - request));
    }
    const refused = await push([post(9100)], limited);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe("rate_limited");
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(refused.headers["x-ratelimit-remaining"]).toBe("0");
    expect(Number(refused.headers["x-ratelimit-reset"])).toBeGreaterThan(Date.now() / 1000);
    expect(await sql(`SELECT 1 FROM wordpress_posts WHERE post_id = 9100`)).toEqual([]);
    // Another token has its own budget.
    expect((await status()).agent_id).toBe(tenant.agentId);
  });

  it("happy: a re-sync of the wordpress source indexes every post again from its stored HTML, re-embedding nothing unchanged", async () => {
    // A small site of its own, so the re-sync does not extract the 1,000 posts again.
    const site = await seedTenant(t.services);
    const siteToken = await createToken(site.workspaceId, ["wp:sync"]);
    expect((await push([post(1), post(2), post(3, 1, { content: "<p> </p>" })], siteToken, site.agentId)).json().data.queued).toBe(3);
    await settled();
    const { source_id: sourceId } = (await (await t.app.inject({ method: "GET", url: `${WP}/status?agent_id=${site.agentId}`, headers: bearer(siteToken) })).json()).data;
    const before = embedder.embedded;
    const sent = await jobs();
    await t.services.db.transaction((tx) => t.services.jobs.send("index-source", { sourceId }, tx));
    // The re-sync marks the documents pending in the transaction that sends their job: once the job exists, settled() means done.
    for (let attempt = 0; attempt < 2000 && (await jobs()) < sent + 3; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(await jobs()).toBe(sent + 3);
    await settled();
    expect(embedder.embedded).toBe(before);
    const statusNow = (await (await t.app.inject({ method: "GET", url: `${WP}/status?agent_id=${site.agentId}`, headers: bearer(siteToken) })).json()).data;
    expect(statusNow).toMatchObject({ source_status: "indexed", posts: { total: 3, indexed: 2, failed: 1, pending: 0 } });
  });
});
