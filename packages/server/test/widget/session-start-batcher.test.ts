import { afterAll, beforeAll, expect, it } from "vitest";
import type { Queryable, SqlValue } from "../../src/db/database.js";
import { quotaMonth } from "../../src/widget/start-session.js";
import { SessionStartBatcher } from "../../src/widget/session-start-batcher.js";
import type { SessionStartRequest, SessionStartScope } from "../../src/conversations/visitor-session-repository.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { seedTenant, type Tenant } from "../support/seed.js";

describeEachStore("SessionStartBatcher (init's group commit) on %s", (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const scopeOf = (tenant: Tenant, quota: number | null): SessionStartScope => ({
    agentId: tenant.agentId,
    workspaceId: tenant.workspaceId,
    month: quotaMonth(t.services.now()),
    quota,
  });
  const request = (anonId: string, overrides: Partial<SessionStartRequest> = {}): SessionStartRequest => ({
    anonId,
    pageUrl: "https://shop.example.com/",
    userAgent: null,
    timeZone: null,
    language: null,
    newConversation: false,
    idleCutoff: new Date(t.services.now().getTime() - 3_600_000),
    ...overrides,
  });
  const countOf = async (workspaceId: string) =>
    (await t.services.db.query<{ count: number }>(`SELECT count FROM conversation_counters WHERE workspace_id = $1`, [workspaceId])).rows;

  it("happy: inits waiting together go in one batch, in order; the same visitor twice waits for the next batch", async () => {
    const tenant = await seedTenant(t.services);
    const batcher = new SessionStartBatcher(t.services.db);
    const scope = scopeOf(tenant, null);
    const started = await Promise.all([
      batcher.start(scope, request("visitor-alone")),
      batcher.start(scope, request("visitor-twice")),
      batcher.start(scope, request("visitor-twice")),
      batcher.start(scope, request("visitor-other")),
    ]);
    expect(started.map((session) => session.visitor.anonId)).toEqual(["visitor-alone", "visitor-twice", "visitor-twice", "visitor-other"]);
    expect(started.map((session) => session.resumed)).toEqual([false, false, true, false]);
    expect(started[2]?.visitor.id).toBe(started[1]?.visitor.id);
    expect(started[2]?.conversationId).toBe(started[1]?.conversationId);
    expect(new Set(started.map((session) => session.conversationId)).size).toBe(3);
    expect(await countOf(tenant.workspaceId)).toEqual([{ count: 3 }]);
  });

  it("happy: a new conversation is started when the latest is idle or one is asked for, with this init's page", async () => {
    const tenant = await seedTenant(t.services);
    const batcher = new SessionStartBatcher(t.services.db);
    const scope = scopeOf(tenant, null);
    const first = await batcher.start(scope, request("visitor-idle"));
    const idle = await batcher.start(scope, request("visitor-idle", { idleCutoff: new Date(t.services.now().getTime() + 60_000) }));
    expect(idle.resumed).toBe(false);
    expect(idle.conversationId).not.toBe(first.conversationId);
    const asked = await batcher.start(scope, request("visitor-idle", { newConversation: true }));
    expect(asked.resumed).toBe(false);
    const resumed = await batcher.start(scope, request("visitor-idle", { pageUrl: "https://shop.example.com/cart", userAgent: "Browser/2" }));
    expect(resumed).toEqual({ visitor: first.visitor, conversationId: asked.conversationId, resumed: true });
    const { rows } = await t.services.db.query(`SELECT last_page_url, user_agent FROM conversations WHERE id = $1`, [asked.conversationId]);
    expect(rows).toEqual([{ last_page_url: "https://shop.example.com/cart", user_agent: "Browser/2" }]);
  });

  it("concurrency: two processes' batchers share the quota exactly (600 of 1,000)", async () => {
    const tenant = await seedTenant(t.services, { quota: 600 });
    const processes = [new SessionStartBatcher(t.services.db), new SessionStartBatcher(t.services.db)];
    const scope = scopeOf(tenant, 600);
    const started = await Promise.all(
      Array.from({ length: 1000 }, (_, index) => processes[index % 2]!.start(scope, request(`crowd-visitor-${index}`))),
    );
    expect(started.filter((session) => session.conversationId !== null)).toHaveLength(600);
    expect(await countOf(tenant.workspaceId)).toEqual([{ count: 600 }]);
    const { rows } = await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM conversations WHERE workspace_id = $1`, [tenant.workspaceId]);
    expect(rows).toEqual([{ n: 600 }]);
  });

  it("error: a batch Postgres ended for a concurrent transaction (deadlock) is sent once more and goes through; a second in a row is the inits' error", async () => {
    const tenant = await seedTenant(t.services);
    let failuresLeft = 1;
    // The store as it is, except that its next statements end as a deadlock victim's would.
    const flaky: Queryable = {
      async query<Row>(text: string, values?: readonly SqlValue[]) {
        if (failuresLeft > 0) {
          failuresLeft -= 1;
          throw Object.assign(new Error("deadlock detected"), { code: "40P01" });
        }
        return t.services.db.query<Row>(text, values);
      },
    };
    const batcher = new SessionStartBatcher(flaky);
    const started = await Promise.all([batcher.start(scopeOf(tenant, null), request("deadlock-one")), batcher.start(scopeOf(tenant, null), request("deadlock-two"))]);
    expect(started.map((session) => session.conversationId)).toEqual([expect.stringMatching(/^cnv_/), expect.stringMatching(/^cnv_/)]);
    expect(await countOf(tenant.workspaceId)).toEqual([{ count: 2 }]);

    failuresLeft = 2;
    await expect(batcher.start(scopeOf(tenant, null), request("deadlock-three"))).rejects.toMatchObject({ code: "40P01" });
    expect(await countOf(tenant.workspaceId)).toEqual([{ count: 2 }]);
  });

  it("error: a failing batch rejects each of its inits, and the agent's next batch goes on", async () => {
    const tenant = await seedTenant(t.services);
    const batcher = new SessionStartBatcher(t.services.db);
    const missing: SessionStartScope = { ...scopeOf(tenant, null), agentId: "agt_missing" };
    const outcomes = await Promise.allSettled([batcher.start(missing, request("visitor-one")), batcher.start(missing, request("visitor-two"))]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["rejected", "rejected"]);
    const after = await batcher.start(scopeOf(tenant, null), request("visitor-one"));
    expect(after.conversationId).toMatch(/^cnv_/);
    expect(await countOf(tenant.workspaceId)).toEqual([{ count: 1 }]);
  });
});
