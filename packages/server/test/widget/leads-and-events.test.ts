import { afterAll, beforeAll, expect, it } from "vitest";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { adminOf, bearer, seedTenant, startSession, type Tenant } from "../support/seed.js";

const LEADS = "/api/v1/widget/leads";
const EVENTS = "/api/v1/widget/events";

describeEachStore("POST /leads and /events on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    t = await createTestApp(kind, { FRONTDESK_RATE_LIMIT_LEADS_PER_MINUTE: "1000", FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "1000" });
    tenant = await seedTenant(t.services);
  });
  afterAll(() => t.close());

  const post = async (url: string, payload: unknown, jwt?: string) => {
    const token = jwt ?? (await startSession(t.app, tenant.agentId)).jwt;
    return t.app.inject({ method: "POST", url, headers: bearer(token), payload: payload as Record<string, unknown> });
  };

  it("happy: a new lead is 201 with the stored lead", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const response = await post(LEADS, { name: "Grace", email: "grace@example.com", phone: "+44 20 7946 0000", fields: { plan: "pro" } }, session.jwt);
    expect(response.statusCode).toBe(201);
    expect(response.json().data).toMatchObject({
      agent_id: tenant.agentId,
      conversation_id: session.conversationId,
      visitor_id: session.visitorId,
      email: "grace@example.com",
      name: "Grace",
      phone: "+44 20 7946 0000",
      fields: { plan: "pro" },
    });
  });

  it("happy: a repeat (e-mail trimmed, other case) is 200, updates name and phone and merges fields", async () => {
    const first = await post(LEADS, { name: "Linus", email: "linus@example.com", phone: "1", fields: { a: 1, b: 2 } });
    const second = await post(LEADS, { name: "Linus T.", email: "  LINUS@Example.COM ", phone: "2", fields: { b: 3, c: 4 } });
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(200);
    expect(second.json().data).toMatchObject({ id: first.json().data.id, name: "Linus T.", phone: "2", fields: { a: 1, b: 3, c: 4 } });
    const third = await post(LEADS, { email: "linus@example.com" });
    expect(third.json().data).toMatchObject({ name: "Linus T.", phone: "2", fields: { a: 1, b: 3, c: 4 } });
    const leads = (await runAdminCommand(adminOf(t.services), { command: "lead.list", agentId: tenant.agentId })) as { email: string }[];
    expect(leads.filter((lead) => lead.email.toLowerCase() === "linus@example.com")).toHaveLength(1);
  });

  it("happy: the same e-mail for another agent is another lead", async () => {
    const other = await seedTenant(t.services);
    const otherSession = await startSession(t.app, other.agentId);
    await post(LEADS, { email: "shared@example.com" });
    const response = await post(LEADS, { email: "shared@example.com" }, otherSession.jwt);
    expect(response.statusCode).toBe(201);
  });

  it.each([
    ["no email", { name: "x" }, "email"],
    ["an invalid email", { email: "not-an-email" }, "email"],
    ["a name over 200 characters", { email: "a@example.com", name: "n".repeat(201) }, "name"],
    ["a phone over 50 characters", { email: "a@example.com", phone: "1".repeat(51) }, "phone"],
    ["fields that are not an object", { email: "a@example.com", fields: ["x"] }, "fields"],
    ["fields with 51 keys", { email: "a@example.com", fields: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) }, "fields"],
    ["fields over 8 KB", { email: "a@example.com", fields: { big: "x".repeat(8200) } }, "fields"],
    ["a non-string name", { email: "a@example.com", name: 7 }, "name"],
  ])("error: %s is 422 naming the field, and nothing is stored", async (_label, body, field) => {
    const before = await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM leads`);
    const response = await post(LEADS, body);
    expect(response.statusCode).toBe(422);
    expect(response.json().error.code).toBe("validation_failed");
    expect(Object.keys(response.json().error.fields)).toContain(field);
    const after = await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM leads`);
    expect(after.rows[0]?.n).toBe(before.rows[0]?.n);
  });

  it("error: leads without a token is 401 missing_token", async () => {
    const response = await t.app.inject({ method: "POST", url: LEADS, payload: { email: "a@example.com" } });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe("missing_token");
  });

  it("happy: an event is 202 and stored with its rule and metadata", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const response = await post(EVENTS, { event: "cta.click", rule_id: "rule-7", metadata: { label: "Book a demo" } }, session.jwt);
    expect(response.statusCode).toBe(202);
    expect(response.json().data).toEqual({ id: expect.any(String), event: "cta.click" });
    const { rows } = await t.services.db.query(
      `SELECT event, rule_id, metadata, conversation_id, agent_id FROM events WHERE id = $1::bigint`,
      [response.json().data.id],
    );
    expect(rows[0]).toEqual({
      event: "cta.click",
      rule_id: "rule-7",
      metadata: { label: "Book a demo" },
      conversation_id: session.conversationId,
      agent_id: tenant.agentId,
    });
  });

  it.each([
    ["no event", { metadata: {} }, "event"],
    ["an empty event", { event: "" }, "event"],
    ["an event over 100 characters", { event: "e".repeat(101) }, "event"],
    ["metadata that is not an object", { event: "x", metadata: "nope" }, "metadata"],
    ["metadata over 8 KB", { event: "x", metadata: { blob: "y".repeat(8200) } }, "metadata"],
    ["a non-string rule_id", { event: "x", rule_id: 5 }, "rule_id"],
  ])("error: an event with %s is 422 naming the field", async (_label, body, field) => {
    const response = await post(EVENTS, body);
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().error.fields)).toContain(field);
  });
});
