import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { adminOf, seedTenant, type Tenant } from "../support/seed.js";

const SOURCES = "/api/v1/workspace/sources";

describeEachStore("Sources API on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let token: string;

  const createToken = async (workspaceId: string, abilities?: string[]) =>
    (await runAdminCommand(adminOf(t.services), {
      command: "token.create",
      workspaceId,
      name: "sync",
      ...(abilities ? { abilities: abilities as ["sources:write"] } : {}),
    })) as { id: string; token: string };

  beforeAll(async () => {
    t = await createTestApp(kind, { FRONTDESK_RATE_LIMIT_SOURCES_PER_MINUTE: "1000" });
    tenant = await seedTenant(t.services);
    token = (await createToken(tenant.workspaceId)).token;
  });
  afterAll(() => t.close());

  const auth = (value = token) => ({ authorization: `Bearer ${value}` });
  const push = (payload: Record<string, unknown>, headers = auth()) =>
    t.app.inject({ method: "POST", url: SOURCES, headers, payload: { agent_id: tenant.agentId, ...payload } });
  const jobsFor = async (sourceId: string) =>
    (await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'index-source' AND data->>'sourceId' = $1`, [sourceId]))
      .rows[0]!.n;

  it("happy: a text push is 201 pending, with its config, and its indexing job is enqueued", async () => {
    const response = await push({ kind: "text", title: "Returns policy", content: "You can return any item within 30 days.", source_url: "https://shop.example.com/returns" });
    expect(response.statusCode).toBe(201);
    const source = response.json().data;
    expect(source).toMatchObject({
      id: expect.stringMatching(/^src_/),
      agent_id: tenant.agentId,
      kind: "text",
      status: "pending",
      config: { title: "Returns policy", source_url: "https://shop.example.com/returns" },
      error: null,
      last_synced_at: null,
    });
    expect(new Date(source.created_at).toISOString()).toBe(source.created_at);
    expect(await jobsFor(source.id)).toBe(1);
  });

  it("happy: the same text again returns the existing source (200, same id) and creates nothing", async () => {
    const content = `Shipping takes 2 to 4 working days. ${Date.now()}`;
    const first = await push({ kind: "text", title: "Shipping", content });
    const before = await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM sources`);
    const second = await push({ kind: "text", title: "Another title", content });
    expect(second.statusCode).toBe(200);
    expect(second.json().data.id).toBe(first.json().data.id);
    const after = await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM sources`);
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
    expect(await jobsFor(first.json().data.id)).toBe(1);
  });

  it("happy: a URL pushed again returns the existing source (200) and schedules a re-sync", async () => {
    const first = await push({ kind: "url", url: "https://shop.example.com/faq#top" });
    expect(first.statusCode).toBe(201);
    expect(first.json().data.config).toEqual({ url: "https://shop.example.com/faq" });
    const again = await push({ kind: "url", url: "https://shop.example.com/faq" });
    expect(again.statusCode).toBe(200);
    expect(again.json().data.id).toBe(first.json().data.id);
    expect(await jobsFor(first.json().data.id)).toBe(2);
  });

  it("happy: a sitemap push carries its progress counters in config", async () => {
    const response = await push({ kind: "sitemap", url: "https://shop.example.com/sitemap.xml" });
    expect(response.statusCode).toBe(201);
    expect(response.json().data.config).toEqual({ url: "https://shop.example.com/sitemap.xml", pages_found: 0, pages_indexed: 0, pages_failed: 0 });
  });

  it("happy: a failed source pushed again goes back to pending and is retried", async () => {
    const first = await push({ kind: "url", url: "https://shop.example.com/broken" });
    const id = first.json().data.id;
    await t.services.db.query(`UPDATE sources SET status = 'failed', error = '{"code":"http_status","message":"404"}' WHERE id = $1`, [id]);
    const again = await push({ kind: "url", url: "https://shop.example.com/broken" });
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toMatchObject({ id, status: "pending", error: null });
  });

  it("happy: GET lists the workspace's sources newest first, at most 100; GET by id returns one", async () => {
    const other = await seedTenant(t.services);
    const otherToken = (await createToken(other.workspaceId)).token;
    const ids: string[] = [];
    for (let i = 0; i < 102; i += 1) {
      const response = await t.app.inject({
        method: "POST",
        url: SOURCES,
        headers: auth(otherToken),
        payload: { agent_id: other.agentId, kind: "text", content: `Fact number ${i}.` },
      });
      ids.push(response.json().data.id);
    }
    const list = await t.app.inject({ method: "GET", url: SOURCES, headers: auth(otherToken) });
    expect(list.statusCode).toBe(200);
    const data = list.json().data as { id: string }[];
    expect(data).toHaveLength(100);
    expect(data[0]!.id).toBe(ids[101]);
    expect(data.map((source) => source.id)).not.toContain(ids[0]);
    const one = await t.app.inject({ method: "GET", url: `${SOURCES}/${ids[5]}`, headers: auth(otherToken) });
    expect(one.statusCode).toBe(200);
    expect(one.json().data.id).toBe(ids[5]);

    // Another workspace's token sees none of them.
    const mine = await t.app.inject({ method: "GET", url: SOURCES, headers: auth() });
    expect((mine.json().data as { agent_id: string }[]).every((source) => source.agent_id === tenant.agentId)).toBe(true);
    const foreign = await t.app.inject({ method: "GET", url: `${SOURCES}/${ids[5]}`, headers: auth() });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe("source_not_found");
  });

  it("error: no Authorization header is 401 missing_token", async () => {
    const response = await t.app.inject({ method: "GET", url: SOURCES });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: { code: "missing_token", message: expect.any(String) } });
  });

  it.each(["fdk_" + "x".repeat(48), "not-a-token", "fdk_short"])("error: unknown token %s is 401 invalid_token", async (value) => {
    const response = await t.app.inject({ method: "GET", url: SOURCES, headers: auth(value) });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe("invalid_token");
  });

  it("security: a revoked token fails on its very next call", async () => {
    const fresh = await createToken(tenant.workspaceId);
    expect((await t.app.inject({ method: "GET", url: SOURCES, headers: auth(fresh.token) })).statusCode).toBe(200);
    await runAdminCommand(adminOf(t.services), { command: "token.revoke", tokenId: fresh.id });
    const response = await t.app.inject({ method: "GET", url: SOURCES, headers: auth(fresh.token) });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe("invalid_token");
  });

  it("security: only the token's SHA-256 is stored, and its last use is recorded", async () => {
    const fresh = await createToken(tenant.workspaceId);
    const { rows } = await t.services.db.query<{ token_hash: string; last_used_at: Date | null }>(
      `SELECT token_hash, last_used_at FROM api_tokens WHERE id = $1`,
      [fresh.id],
    );
    expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]!.token_hash).not.toContain(fresh.token.slice(4));
    expect(rows[0]!.last_used_at).toBeNull();
    await t.app.inject({ method: "GET", url: SOURCES, headers: auth(fresh.token) });
    const after = await t.services.db.query<{ last_used_at: Date | null }>(`SELECT last_used_at FROM api_tokens WHERE id = $1`, [fresh.id]);
    expect(after.rows[0]!.last_used_at).not.toBeNull();
  });

  it("error: a token without sources:write is 403 missing_ability", async () => {
    const readOnly = await createToken(tenant.workspaceId, ["sources:read"]);
    const response = await push({ kind: "text", content: "x" }, auth(readOnly.token));
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe("missing_ability");
  });

  it("security: an agent of another workspace is 404 agent_not_found and nothing is created", async () => {
    const other = await seedTenant(t.services);
    const before = await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM sources`);
    const response = await push({ agent_id: other.agentId, kind: "text", content: "Secret sauce." });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe("agent_not_found");
    expect((await push({ agent_id: "agt_nope", kind: "url", url: "https://a.test/" })).json().error.code).toBe("agent_not_found");
    const after = await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM sources`);
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });

  it.each([
    ["an unknown kind", { kind: "pdf", url: "https://a.test/" }, "kind"],
    ["no kind", { url: "https://a.test/" }, "kind"],
    ["a url that is not http(s)", { kind: "url", url: "ftp://a.test/file" }, "url"],
    ["a relative url", { kind: "url", url: "/faq" }, "url"],
    ["a url over 2,048 characters", { kind: "url", url: `https://a.test/${"p".repeat(2050)}` }, "url"],
    ["a sitemap without url", { kind: "sitemap" }, "url"],
    ["text without content", { kind: "text", title: "x" }, "content"],
    ["text with blank content", { kind: "text", content: "   " }, "content"],
    ["text over 2 MB", { kind: "text", content: "a".repeat(2 * 1024 * 1024 + 1) }, "content"],
    ["a title over 500 characters", { kind: "text", content: "x", title: "t".repeat(501) }, "title"],
    ["a source_url that is not a URL", { kind: "text", content: "x", source_url: "nope" }, "source_url"],
    ["no agent_id", { agent_id: undefined, kind: "text", content: "x" }, "agent_id"],
  ])("error: %s is 422 validation_failed naming the field, and nothing is created", async (_label, body, field) => {
    const before = await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM sources`);
    const response = await push(body);
    expect(response.statusCode).toBe(422);
    expect(response.json().error.code).toBe("validation_failed");
    expect(Object.keys(response.json().error.fields)).toContain(field);
    const after = await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM sources`);
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });

  it("happy: unknown members are ignored", async () => {
    const response = await push({ kind: "text", content: `Ignored extras ${Date.now()}`, colour: "blue" });
    expect(response.statusCode).toBe(201);
  });

  it("happy: DELETE removes the source with its documents and chunks", async () => {
    const created = (await push({ kind: "text", content: `To be deleted ${Date.now()}` })).json().data;
    const doc = await t.services.db.query<{ id: number }>(
      `INSERT INTO documents (source_id, workspace_id, agent_id, url, status) VALUES ($1, $2, $3, 'urn:x', 'indexed') RETURNING id::int AS id`,
      [created.id, tenant.workspaceId, tenant.agentId],
    );
    await t.services.db.query(
      `INSERT INTO chunks (document_id, agent_id, chunk_index, content, token_estimate, embedder, dimensions, embedding, search_vector)
       VALUES ($1, $2, 0, 'x', 1, 'hashing:v1:384', 3, '[1,0,0]', to_tsvector('simple', 'x'))`,
      [doc.rows[0]!.id, tenant.agentId],
    );
    const response = await t.app.inject({ method: "DELETE", url: `${SOURCES}/${created.id}`, headers: auth() });
    expect(response.statusCode).toBe(204);
    const left = await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM chunks WHERE document_id = $1`, [doc.rows[0]!.id]);
    expect(left.rows[0]!.n).toBe(0);
    expect((await t.app.inject({ method: "GET", url: `${SOURCES}/${created.id}`, headers: auth() })).statusCode).toBe(404);
  });
});

describe("Sources API rate limit", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp("pglite", { FRONTDESK_RATE_LIMIT_SOURCES_PER_MINUTE: "3" });
  });
  afterAll(() => t.close());

  it("error: past the per-token budget is 429 rate_limited with the same headers as the widget API", async () => {
    const tenant = await seedTenant(t.services);
    const { token } = (await runAdminCommand(adminOf(t.services), { command: "token.create", workspaceId: tenant.workspaceId, name: "x" })) as { token: string };
    const get = () => t.app.inject({ method: "GET", url: SOURCES, headers: { authorization: `Bearer ${token}` } });
    for (let i = 0; i < 3; i += 1) {
      const ok = await get();
      expect(ok.statusCode).toBe(200);
      expect(ok.headers["x-ratelimit-limit"]).toBe("3");
    }
    const refused = await get();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe("rate_limited");
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(refused.headers["x-ratelimit-reset"]).toBeDefined();
  });
});
