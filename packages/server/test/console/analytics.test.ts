import { afterAll, beforeAll, expect, it } from "vitest";
import { seedAnalyticsWeek } from "../support/analytics-week.js";
import { CONSOLE, type ConsoleSession, seedConsoleCast } from "../support/console-session.js";
import { bearer, startSession, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

describeEachStore("the console's analytics on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let other: Tenant;
  let admin: ConsoleSession;
  let agentOperator: ConsoleSession;
  let outsider: ConsoleSession;
  const agentB = "agt_analytics_b";

  beforeAll(async () => {
    t = await createTestApp(kind);
    ({ tenant, other, admin, agentOperator, outsider } = await seedConsoleCast(t));
    await t.services.db.query(`INSERT INTO agents (id, workspace_id, name, persona_name) VALUES ($1, $2, 'B', 'B')`, [agentB, tenant.workspaceId]);
    await seedAnalyticsWeek(t.services.db, { a: tenant, b: { workspaceId: tenant.workspaceId, agentId: agentB }, other });
  });
  afterAll(() => t.close());

  const analytics = (session: ConsoleSession | null, query: string) =>
    t.app.inject({ method: "GET", url: `${CONSOLE}/analytics${query}`, ...(session ? { headers: session.headers } : {}) });

  it("happy: every figure of the seeded week, exactly", async () => {
    const response = await analytics(agentOperator, `?agent_id=${tenant.agentId}&from=2026-03-01&to=2026-03-07`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toEqual({
      agent_id: tenant.agentId,
      from: "2026-03-01",
      to: "2026-03-07",
      conversations: {
        total: 8,
        per_day: [
          { date: "2026-03-01", conversations: 2 },
          { date: "2026-03-02", conversations: 1 },
          { date: "2026-03-03", conversations: 2 },
          { date: "2026-03-04", conversations: 0 },
          { date: "2026-03-05", conversations: 2 },
          { date: "2026-03-06", conversations: 1 },
          { date: "2026-03-07", conversations: 0 },
        ],
      },
      outcomes: {
        answered: { count: 1, share: 0.125 },
        answered_low_confidence: { count: 2, share: 0.25 },
        handed_to_human: { count: 4, share: 0.5 },
        unanswered: { count: 1, share: 0.125 },
      },
      satisfaction: { good: 2, bad: 1, share_good: 2 / 3 },
      // Two 👍 (one in a conversation a person took) and one 👎; confirmed: a good rating (1) and a 👍 (3); merely ended: 2.
      answer_ratings: { up: 2, down: 1 },
      resolutions: { confirmed: { count: 2, share: 0.25 }, ended_without_person: { count: 1, share: 0.125 } },
      first_operator_reply: { median_seconds: 120, conversations: 3 },
      top_questions: [
        { question: "where is my order", count: 3 },
        { question: "do you ship abroad", count: 2 },
        { question: "hello", count: 1 },
        { question: "i want a human", count: 1 },
        { question: "thanks", count: 1 },
      ],
      funnel: { launcher_opened: 5, conversations: 7, leads: 2 },
      labels: [],
    });
  });

  it("happy: a narrower period counts only its days; an even sample's median is the mean of the middle two; an empty period is all zeros and nulls", async () => {
    const narrow = (await analytics(admin, `?agent_id=${tenant.agentId}&from=2026-03-03&to=2026-03-05`)).json().data;
    expect(narrow.conversations).toEqual({
      total: 4,
      per_day: [
        { date: "2026-03-03", conversations: 2 },
        { date: "2026-03-04", conversations: 0 },
        { date: "2026-03-05", conversations: 2 },
      ],
    });
    expect(narrow.outcomes.handed_to_human).toEqual({ count: 4, share: 1 });
    expect(narrow.first_operator_reply).toEqual({ median_seconds: 120, conversations: 3 });
    const two = (await analytics(admin, `?agent_id=${tenant.agentId}&from=2026-03-03&to=2026-03-03`)).json().data;
    expect(two.first_operator_reply).toEqual({ median_seconds: 360, conversations: 2 });

    const empty = (await analytics(admin, `?agent_id=${tenant.agentId}&from=2025-01-01&to=2025-01-02`)).json().data;
    expect(empty).toEqual({
      agent_id: tenant.agentId,
      from: "2025-01-01",
      to: "2025-01-02",
      conversations: { total: 0, per_day: [{ date: "2025-01-01", conversations: 0 }, { date: "2025-01-02", conversations: 0 }] },
      outcomes: {
        answered: { count: 0, share: null },
        answered_low_confidence: { count: 0, share: null },
        handed_to_human: { count: 0, share: null },
        unanswered: { count: 0, share: null },
      },
      satisfaction: { good: 0, bad: 0, share_good: null },
      answer_ratings: { up: 0, down: 0 },
      resolutions: { confirmed: { count: 0, share: null }, ended_without_person: { count: 0, share: null } },
      first_operator_reply: { median_seconds: null, conversations: 0 },
      top_questions: [],
      funnel: { launcher_opened: 0, conversations: 0, leads: 0 },
      labels: [],
    });
  });

  it("happy: without from and to, the period is the last 30 UTC days, today included", async () => {
    const data = (await analytics(admin, `?agent_id=${tenant.agentId}`)).json().data;
    const today = t.services.now().toISOString().slice(0, 10);
    expect(data.to).toBe(today);
    expect(data.conversations.per_day).toHaveLength(30);
    expect(data.conversations.per_day[0].date).toBe(data.from);
    expect(data.conversations.per_day[29].date).toBe(today);
  });

  it("security: another workspace's agent is 404 agent_not_found; its figures never leak; without a session 401", async () => {
    const response = await analytics(admin, `?agent_id=${other.agentId}&from=2026-03-01&to=2026-03-07`);
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe("agent_not_found");
    const theirs = (await analytics(outsider, `?agent_id=${other.agentId}&from=2026-03-01&to=2026-03-07`)).json().data;
    expect(theirs.conversations.total).toBe(1);
    expect(theirs.funnel).toEqual({ launcher_opened: 1, conversations: 1, leads: 0 });
    expect((await analytics(null, `?agent_id=${tenant.agentId}`)).statusCode).toBe(401);
  });

  it("error: a missing or bad agent_id, a date that is not one, from after to, or a period over 366 days is 422 naming the parameter", async () => {
    const cases: [string, string][] = [
      ["", "querystring.agent_id"],
      ["?agent_id=a%20b", "querystring.agent_id"],
      [`?agent_id=${tenant.agentId}&from=2026-02-30`, "querystring.from"],
      [`?agent_id=${tenant.agentId}&to=yesterday`, "querystring.to"],
      [`?agent_id=${tenant.agentId}&from=2026-03-08&to=2026-03-07`, "querystring.from"],
      [`?agent_id=${tenant.agentId}&from=2025-01-01&to=2026-01-02`, "querystring.from"],
      [`?agent_id=${tenant.agentId}&from=1969-12-31&to=1970-01-02`, "querystring.from"],
      [`?agent_id=${tenant.agentId}&from=9999-12-30&to=9999-12-31`, "querystring.to"],
    ];
    for (const [query, field] of cases) {
      const response = await analytics(admin, query);
      expect(response.statusCode, query).toBe(422);
      expect(response.json().error.code).toBe("validation_failed");
      expect(Object.keys(response.json().error.fields), query).toContain(field);
    }
    expect((await analytics(admin, `?agent_id=${tenant.agentId}&from=2025-01-01&to=2026-01-01`)).statusCode).toBe(200);
  });

  it("happy: the state machine records the handover analytics counts: a request for a person, kept after the release; a takeover without one", async () => {
    const handedAt = async (conversationId: string) =>
      (await t.services.db.query<{ handed_to_human_at: Date | null; human_requested_at: Date | null }>(
        `SELECT handed_to_human_at, human_requested_at FROM conversations WHERE id = $1`,
        [conversationId],
      )).rows[0]!;
    const requested = await startSession(t.app, tenant.agentId);
    expect((await handedAt(requested.conversationId)).handed_to_human_at).toBeNull();
    const ask = await t.app.inject({ method: "POST", url: "/api/v1/widget/request-human", headers: bearer(requested.jwt), payload: {} });
    expect(ask.statusCode, ask.body).toBe(200);
    const stamped = await handedAt(requested.conversationId);
    expect(stamped.handed_to_human_at).not.toBeNull();
    expect(new Date(stamped.handed_to_human_at!).toISOString()).toBe(new Date(stamped.human_requested_at!).toISOString());
    const take = (id: string) => t.app.inject({ method: "POST", url: `${CONSOLE}/conversations/${id}/assign`, headers: admin.headers, payload: {} });
    expect((await take(requested.conversationId)).statusCode).toBe(200);
    const release = await t.app.inject({ method: "POST", url: `${CONSOLE}/conversations/${requested.conversationId}/release`, headers: admin.headers, payload: {} });
    expect(release.statusCode, release.body).toBe(200);
    const released = await handedAt(requested.conversationId);
    expect(released.human_requested_at).toBeNull();
    expect(new Date(released.handed_to_human_at!).toISOString()).toBe(new Date(stamped.handed_to_human_at!).toISOString());

    const takenOver = await startSession(t.app, tenant.agentId);
    expect((await take(takenOver.conversationId)).statusCode).toBe(200);
    expect((await handedAt(takenOver.conversationId)).handed_to_human_at).not.toBeNull();
  });
});
