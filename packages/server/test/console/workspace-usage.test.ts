import { afterAll, beforeAll, expect, it } from "vitest";
import { CONSOLE, createSignedInOperator } from "../support/console-session.js";
import { seedTenant, startSession } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

const monthOf = (date: Date, offset: number) => new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + offset, 1)).toISOString().slice(0, 7);

describeEachStore("the workspace's quota and usage on %s", (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const usage = async (session: { headers: Record<string, string> }) => {
    const response = await t.app.inject({ method: "GET", url: `${CONSOLE}/workspace/usage`, headers: session.headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };

  it("happy: the quota, the conversations init counted this month, what remains, the reset and six months of history; any role", async () => {
    const tenant = await seedTenant(t.services, { quota: 3 });
    const other = await seedTenant(t.services, { quota: 3 });
    const agentOperator = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "agent" });
    await startSession(t.app, tenant.agentId);
    await startSession(t.app, tenant.agentId);
    await startSession(t.app, other.agentId);
    const now = t.services.now();
    await t.services.db.query(`INSERT INTO conversation_counters (workspace_id, month, count) VALUES ($1, $2::date, 41), ($1, $3::date, 99)`, [
      tenant.workspaceId,
      `${monthOf(now, -2)}-01`,
      `${monthOf(now, -6)}-01`,
    ]);
    expect(await usage(agentOperator)).toEqual({
      workspace: { id: tenant.workspaceId, name: "Acme" },
      month: monthOf(now, 0),
      conversation_quota: 3,
      conversations_used: 2,
      conversations_remaining: 1,
      resets_at: `${monthOf(now, 1)}-01T00:00:00.000Z`,
      history: [-5, -4, -3, -2, -1, 0].map((offset) => ({ month: monthOf(now, offset), conversations: offset === -2 ? 41 : offset === 0 ? 2 : 0 })),
    });
  });

  it("happy: without a quota, remaining is null; a spent quota leaves 0", async () => {
    const unlimited = await seedTenant(t.services);
    const owner = await createSignedInOperator(t, { workspaceId: unlimited.workspaceId, role: "admin" });
    await startSession(t.app, unlimited.agentId);
    expect(await usage(owner)).toMatchObject({ conversation_quota: null, conversations_used: 1, conversations_remaining: null });

    const tight = await seedTenant(t.services, { quota: 1 });
    const tightOwner = await createSignedInOperator(t, { workspaceId: tight.workspaceId, role: "admin" });
    await startSession(t.app, tight.agentId);
    const refused = await t.app.inject({ method: "POST", url: "/api/v1/widget/init", headers: { origin: "https://shop.example.com" }, payload: { agent_id: tight.agentId, page_url: "https://shop.example.com/" } });
    expect(refused.statusCode).toBe(429);
    expect(await usage(tightOwner)).toMatchObject({ conversation_quota: 1, conversations_used: 1, conversations_remaining: 0 });
  });

  it("security: without a session it is 401 unauthenticated", async () => {
    const response = await t.app.inject({ method: "GET", url: `${CONSOLE}/workspace/usage` });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe("unauthenticated");
  });
});
