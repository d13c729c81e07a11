import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { adminOf, SITE_ORIGIN, seedTenant, startSession, type Tenant } from "../support/seed.js";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";

const INIT = "/api/v1/widget/init";

describeEachStore("POST /init on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    t = await createTestApp(kind, { FRONTDESK_RATE_LIMIT_INIT_PER_MINUTE: "100000" });
    tenant = await seedTenant(t.services);
  });
  afterAll(() => t.close());

  const init = (body: Record<string, unknown>, origin: string | null = SITE_ORIGIN) =>
    t.app.inject({
      method: "POST",
      url: INIT,
      headers: origin === null ? {} : { origin },
      payload: { page_url: `${SITE_ORIGIN}/`, ...body },
    });

  it("happy: returns the whole init payload for a published agent", async () => {
    const response = await init({ agent_id: tenant.agentId });
    expect(response.statusCode).toBe(200);
    const data = response.json().data;
    expect(data.conversation_id).toMatch(/^cnv_/);
    expect(data.visitor_id).toMatch(/^vis_/);
    expect(data.anonymous_id).toMatch(/^anon_/);
    expect(data.jwt.split(".")).toHaveLength(3);
    expect(new Date(data.expires_at).getTime() - Date.now()).toBeGreaterThan(3590_000);
    expect(data.agent).toEqual({
      id: tenant.agentId,
      name: "Acme Assistant",
      persona: { name: "Ada", tone: "warm and concise" },
      theme: { primary: "#112233" },
      starter_prompts: ["Where is my order?", "Do you ship abroad?"],
      language_default: "en",
    });
    expect(data.branding).toMatchObject({ show: true, label: "Powered by Frontdesk", display_mode: "logo_and_label" });
    expect(data.branding.logo_url).toMatch(/\/widget\/logo\.svg$/);
    expect(data.behavior_rules).toEqual([]);
    expect(data.messages).toEqual([]);
    // By default the WebSocket server is the service itself, where FRONTDESK_PUBLIC_URL (here its default, HOST:PORT) says.
    expect(data.reverb).toEqual({ app_key: "frontdesk", host: "127.0.0.1", port: 8080, scheme: "ws" });
    expect(response.headers["access-control-allow-origin"]).toBe(SITE_ORIGIN);
    expect(t.published.some((event) => event.type === "conversation.started" && event.conversationId === data.conversation_id)).toBe(true);
  });

  it("happy: the same anon_id resumes the visitor's latest conversation with its last 30 messages, oldest first", async () => {
    const first = await startSession(t.app, tenant.agentId, { anon_id: "visitor-resume-1" });
    for (let i = 0; i < 35; i += 1) {
      await t.services.db.query(`INSERT INTO messages (id, conversation_id, role, content) VALUES ($1, $2, $3, $4)`, [
        `msg_test_${i}`,
        first.conversationId,
        i % 2 === 0 ? "visitor" : "bot",
        `message ${i}`,
      ]);
    }
    const response = await init({ agent_id: tenant.agentId, anon_id: "visitor-resume-1" });
    const data = response.json().data;
    expect(data.conversation_id).toBe(first.conversationId);
    expect(data.visitor_id).toBe(first.visitorId);
    expect(data.anonymous_id).toBe("visitor-resume-1");
    expect(data.jwt).not.toBe(first.jwt);
    expect(data.messages).toHaveLength(30);
    expect(data.messages[0]).toMatchObject({ id: "msg_test_5", role: "bot", content: "message 5", citations: [] });
    expect(data.messages[29].content).toBe("message 34");
    expect(typeof data.messages[0].created_at).toBe("string");
  });

  it("happy: new_conversation true starts a fresh conversation for the same visitor", async () => {
    const first = await startSession(t.app, tenant.agentId, { anon_id: "visitor-new-1" });
    const second = await startSession(t.app, tenant.agentId, { anon_id: "visitor-new-1", new_conversation: true });
    expect(second.visitorId).toBe(first.visitorId);
    expect(second.conversationId).not.toBe(first.conversationId);
  });

  it("happy: a conversation idle longer than CONVERSATION_IDLE_HOURS is not resumed", async () => {
    const first = await startSession(t.app, tenant.agentId, { anon_id: "visitor-idle-1" });
    t.clock.offsetMs = 25 * 3_600_000;
    try {
      const later = await startSession(t.app, tenant.agentId, { anon_id: "visitor-idle-1" });
      expect(later.visitorId).toBe(first.visitorId);
      expect(later.conversationId).not.toBe(first.conversationId);
    } finally {
      t.clock.offsetMs = 0;
    }
  });

  it("happy: the same anon_id is a different visitor for another agent", async () => {
    const other = await seedTenant(t.services);
    const a = await startSession(t.app, tenant.agentId, { anon_id: "shared-anon-id" });
    const b = await startSession(t.app, other.agentId, { anon_id: "shared-anon-id" });
    expect(a.visitorId).not.toBe(b.visitorId);
  });

  it("error: unknown agent is 404 agent_not_found", async () => {
    const response = await init({ agent_id: "agt_doesnotexist" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: { code: "agent_not_found", message: expect.any(String) } });
  });

  it("error: an unpublished agent is 404 agent_not_found, and publishing brings it back", async () => {
    const draft = await seedTenant(t.services, { draft: true });
    expect((await init({ agent_id: draft.agentId })).json().error.code).toBe("agent_not_found");
    await runAdminCommand(adminOf(t.services), { command: "agent.publish", agentId: draft.agentId });
    expect((await init({ agent_id: draft.agentId })).statusCode).toBe(200);
    await runAdminCommand(adminOf(t.services), { command: "agent.unpublish", agentId: draft.agentId });
    expect((await init({ agent_id: draft.agentId })).statusCode).toBe(404);
  });

  it.each([
    ["a foreign origin", "https://evil.example.net"],
    ["another scheme", "http://shop.example.com"],
    ["another port", "https://shop.example.com:8443"],
    ["a subdomain of an exact entry", "https://www.shop.example.com"],
    ["the literal null origin", "null"],
    ["a missing Origin header", null],
  ])("security: %s is 403 origin_forbidden", async (_label, origin) => {
    const response = await init({ agent_id: tenant.agentId }, origin);
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe("origin_forbidden");
  });

  it("happy: a wildcard entry admits subdomains but not the apex; ports must match", async () => {
    const wild = await seedTenant(t.services, { origins: ["https://*.example.org", "http://localhost:3000"] });
    expect((await init({ agent_id: wild.agentId }, "https://blog.example.org")).statusCode).toBe(200);
    expect((await init({ agent_id: wild.agentId }, "https://a.b.example.org")).statusCode).toBe(200);
    expect((await init({ agent_id: wild.agentId }, "https://example.org")).statusCode).toBe(403);
    expect((await init({ agent_id: wild.agentId }, "https://evilexample.org")).statusCode).toBe(403);
    expect((await init({ agent_id: wild.agentId }, "http://localhost:3000")).statusCode).toBe(200);
    expect((await init({ agent_id: wild.agentId }, "http://localhost:3001")).statusCode).toBe(403);
  });

  it.each([
    ["no agent_id", { agent_id: undefined }, "agent_id"],
    ["a non-string agent_id", { agent_id: 42 }, "agent_id"],
    ["a relative page_url", { page_url: "/products" }, "page_url"],
    ["a javascript: page_url", { page_url: "javascript:alert(1)" }, "page_url"],
    ["an anon_id with bad characters", { anon_id: "abc def ghi" }, "anon_id"],
    ["an over-long anon_id", { anon_id: "a".repeat(129) }, "anon_id"],
    ["a non-boolean new_conversation", { new_conversation: "yes" }, "new_conversation"],
  ])("error: %s is 422 validation_failed naming the field", async (_label, body, field) => {
    const response = await init({ agent_id: tenant.agentId, ...body });
    expect(response.statusCode).toBe(422);
    const error = response.json().error;
    expect(error.code).toBe("validation_failed");
    expect(Object.keys(error.fields)).toContain(field);
  });

  it("error: plan_limit_reached past the monthly quota, while resuming still works", async () => {
    const limited = await seedTenant(t.services, { quota: 2 });
    const first = await startSession(t.app, limited.agentId, { anon_id: "quota-visitor-1" });
    await startSession(t.app, limited.agentId, { anon_id: "quota-visitor-2" });
    const refused = await init({ agent_id: limited.agentId, anon_id: "quota-visitor-3" });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe("plan_limit_reached");
    const resumed = await startSession(t.app, limited.agentId, { anon_id: "quota-visitor-1" });
    expect(resumed.conversationId).toBe(first.conversationId);
    const { rows } = await t.services.db.query<{ count: number }>(
      `SELECT count FROM conversation_counters WHERE workspace_id = $1`,
      [limited.workspaceId],
    );
    expect(rows).toEqual([{ count: 2 }]);
  });

  it("happy: the quota resets with the UTC calendar month", async () => {
    const limited = await seedTenant(t.services, { quota: 1 });
    await startSession(t.app, limited.agentId);
    expect((await init({ agent_id: limited.agentId })).statusCode).toBe(429);
    t.clock.offsetMs = 32 * 24 * 3_600_000;
    try {
      expect((await init({ agent_id: limited.agentId })).statusCode).toBe(200);
    } finally {
      t.clock.offsetMs = 0;
    }
  });

  it("concurrency: the monthly count stays exact under 40 concurrent inits", async () => {
    const limited = await seedTenant(t.services, { quota: 25 });
    const responses = await Promise.all(Array.from({ length: 40 }, () => init({ agent_id: limited.agentId })));
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(25);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
    const { rows } = await t.services.db.query<{ count: number }>(
      `SELECT count FROM conversation_counters WHERE workspace_id = $1`,
      [limited.workspaceId],
    );
    expect(rows[0]?.count).toBe(25);
    const conversations = await t.services.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM conversations WHERE workspace_id = $1`,
      [limited.workspaceId],
    );
    expect(conversations.rows[0]?.n).toBe(25);
  });

  it("concurrency: the monthly count stays exact under 1,000 concurrent inits (batched together)", async () => {
    const limited = await seedTenant(t.services, { quota: 600 });
    const responses = await Promise.all(Array.from({ length: 1000 }, (_, index) => init({ agent_id: limited.agentId, anon_id: `crowd-visitor-${index}` })));
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(600);
    expect(statuses.filter((status) => status === 429)).toHaveLength(400);
    const ids = new Set(responses.filter((response) => response.statusCode === 200).map((response) => response.json().data.conversation_id));
    expect(ids.size).toBe(600);
    const { rows } = await t.services.db.query<{ count: number }>(`SELECT count FROM conversation_counters WHERE workspace_id = $1`, [limited.workspaceId]);
    expect(rows).toEqual([{ count: 600 }]);
    const stored = await t.services.db.query<{ conversations: number; visitors: number }>(
      `SELECT (SELECT count(*)::int FROM conversations WHERE workspace_id = $1) AS conversations,
              (SELECT count(*)::int FROM visitors WHERE agent_id = $2) AS visitors`,
      [limited.workspaceId, limited.agentId],
    );
    // Refused inits still leave their visitor (as before batching): the next init reuses it.
    expect(stored.rows[0]).toEqual({ conversations: 600, visitors: 1000 });
  });

  it("concurrency: resumes, new conversations and repeated visitors arriving together each get theirs", async () => {
    const limited = await seedTenant(t.services, { quota: 3 });
    const returning = await startSession(t.app, limited.agentId, { anon_id: "returning" });
    const responses = await Promise.all([
      init({ agent_id: limited.agentId, anon_id: "returning" }),
      init({ agent_id: limited.agentId, anon_id: "newcomer" }),
      init({ agent_id: limited.agentId, anon_id: "newcomer" }),
      init({ agent_id: limited.agentId, anon_id: "returning", new_conversation: true }),
      init({ agent_id: limited.agentId, anon_id: "late-visitor" }),
    ]);
    expect(responses.map((response) => response.statusCode)).toEqual([200, 200, 200, 200, 429]);
    const [resumed, newcomer, newcomerAgain, fresh] = responses.map((response) => response.json().data);
    expect(resumed.conversation_id).toBe(returning.conversationId);
    expect(resumed.visitor_id).toBe(returning.visitorId);
    // The same visitor twice at once: one visitor; the second init (a later batch) resumes the first's conversation.
    expect(newcomerAgain.visitor_id).toBe(newcomer.visitor_id);
    expect(newcomerAgain.conversation_id).toBe(newcomer.conversation_id);
    expect(fresh.visitor_id).toBe(returning.visitorId);
    expect(fresh.conversation_id).not.toBe(returning.conversationId);
    const { rows } = await t.services.db.query<{ count: number }>(`SELECT count FROM conversation_counters WHERE workspace_id = $1`, [limited.workspaceId]);
    expect(rows).toEqual([{ count: 3 }]);
  });

  it("quota: a quota lowered below this month's count refuses new conversations and leaves the count", async () => {
    const limited = await seedTenant(t.services, { quota: 3 });
    await startSession(t.app, limited.agentId);
    await t.services.db.query(`UPDATE conversation_counters SET count = 5 WHERE workspace_id = $1`, [limited.workspaceId]);
    expect((await init({ agent_id: limited.agentId })).statusCode).toBe(429);
    const { rows } = await t.services.db.query<{ count: number }>(`SELECT count FROM conversation_counters WHERE workspace_id = $1`, [limited.workspaceId]);
    expect(rows).toEqual([{ count: 5 }]);
  });
});
