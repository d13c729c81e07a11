import { afterAll, beforeAll, expect, it } from "vitest";
import { CONSOLE, type ConsoleSession, seedConsoleCast } from "../support/console-session.js";
import { bearer, startSession, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

/** A conversation of the seeded data: its creation, handover, rating and messages (role, text, minutes after creation, low confidence). */
interface SeededConversation {
  id: string;
  agent: "a" | "b" | "other";
  visitor: string;
  createdAt: string;
  handedAfterSeconds?: number;
  rating?: "good" | "bad";
  messages?: [role: "visitor" | "bot" | "operator" | "system", content: string, afterSeconds: number, lowConfidence?: boolean][];
}

const CONVERSATIONS: SeededConversation[] = [
  // Answered (confidently), rated good.
  { id: "cnv_1", agent: "a", visitor: "vis_1", createdAt: "2026-03-01T10:00:00Z", rating: "good", messages: [["visitor", "Where is my order?", 5], ["bot", "In transit.", 6]] },
  // Answered with low confidence, rated bad.
  { id: "cnv_2", agent: "a", visitor: "vis_2", createdAt: "2026-03-01T12:00:00Z", rating: "bad", messages: [["visitor", "where is my   ORDER", 5], ["bot", "Maybe?", 6, true]] },
  // One confident and one low-confidence answer: low confidence.
  { id: "cnv_3", agent: "a", visitor: "vis_3", createdAt: "2026-03-02T09:00:00Z", messages: [["visitor", "Do you ship abroad?", 1], ["bot", "Yes.", 2], ["bot", "Perhaps.", 3, true]] },
  // Handed to a person after a bot answer; first operator reply 120 s after the handover.
  {
    id: "cnv_4",
    agent: "a",
    visitor: "vis_4",
    createdAt: "2026-03-03T08:00:00Z",
    handedAfterSeconds: 60,
    messages: [["visitor", "I want a human", 10], ["bot", "Sure.", 20], ["system", "Waiting for a person to join", 60], ["operator", "Hi, Ana here.", 180]],
  },
  // Handed at creation; replies at 600 s and 1,200 s (the first counts); rated good.
  {
    id: "cnv_5",
    agent: "a",
    visitor: "vis_5",
    createdAt: "2026-03-03T09:00:00Z",
    handedAfterSeconds: 0,
    rating: "good",
    messages: [["visitor", "Where is my order!", 1], ["operator", "Let me look.", 600], ["visitor", "Thanks", 700], ["operator", "Found it.", 1200]],
  },
  // The same visitor as cnv_3; a reply 30 s after the handover.
  { id: "cnv_6", agent: "a", visitor: "vis_3", createdAt: "2026-03-05T10:00:00Z", handedAfterSeconds: 0, messages: [["visitor", "Do you ship abroad", 0], ["operator", "We do.", 30]] },
  // A person asked for without a word written, and never answered: counted, handed, not in the median.
  { id: "cnv_7", agent: "a", visitor: "vis_7", createdAt: "2026-03-05T11:00:00Z", handedAfterSeconds: 5 },
  // The bot never answered; "???" normalises to nothing and is no question.
  { id: "cnv_8", agent: "a", visitor: "vis_8", createdAt: "2026-03-06T11:00:00Z", messages: [["visitor", "hello?", 1], ["visitor", "???", 2]] },
  // Opened without a word: not counted.
  { id: "cnv_9", agent: "a", visitor: "vis_9", createdAt: "2026-03-06T12:00:00Z" },
  // Outside the period (one microsecond before it, and its first instant after), another agent, another workspace.
  { id: "cnv_10", agent: "a", visitor: "vis_10", createdAt: "2026-02-28T23:59:59.999999Z", rating: "good", messages: [["visitor", "Where is my order", 0]] },
  { id: "cnv_11", agent: "a", visitor: "vis_11", createdAt: "2026-03-08T00:00:00Z", handedAfterSeconds: 0, messages: [["visitor", "Where is my order", 0], ["operator", "Hi", 1]] },
  { id: "cnv_12", agent: "b", visitor: "vis_12", createdAt: "2026-03-02T10:00:00Z", rating: "bad", messages: [["visitor", "Where is my order", 0]] },
  { id: "cnv_13", agent: "other", visitor: "vis_13", createdAt: "2026-03-02T10:00:00Z", messages: [["visitor", "Where is my order", 0]] },
];

/** launcher.open (and other) events: [agent, visitor, event, time]. */
const EVENTS: [agent: "a" | "b" | "other", visitor: string, event: string, at: string][] = [
  ["a", "vis_1", "launcher.open", "2026-03-01T09:59:00Z"],
  ["a", "vis_1", "launcher.open", "2026-03-04T09:59:00Z"],
  ["a", "vis_2", "launcher.open", "2026-03-01T11:59:00Z"],
  ["a", "vis_3", "launcher.open", "2026-03-02T08:59:00Z"],
  ["a", "vis_4", "launcher.open", "2026-03-03T07:59:00Z"],
  ["a", "vis_9", "launcher.open", "2026-03-06T11:59:00Z"],
  ["a", "vis_5", "cta.click", "2026-03-03T08:59:00Z"],
  ["a", "vis_5", "launcher.open", "2026-03-08T00:00:00Z"],
  ["b", "vis_12", "launcher.open", "2026-03-02T09:59:00Z"],
  ["other", "vis_13", "launcher.open", "2026-03-02T09:59:00Z"],
];

/** Leads: [agent, visitor, created]. */
const LEADS: [agent: "a" | "b", visitor: string, at: string][] = [
  ["a", "vis_1", "2026-03-01T10:05:00Z"],
  ["a", "vis_4", "2026-03-03T08:30:00Z"],
  ["a", "vis_10", "2026-02-27T10:00:00Z"],
  ["b", "vis_12", "2026-03-02T10:05:00Z"],
];

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
    const { db } = t.services;
    await db.query(`INSERT INTO agents (id, workspace_id, name, persona_name) VALUES ($1, $2, 'B', 'B')`, [agentB, tenant.workspaceId]);
    const agentOf = (agent: "a" | "b" | "other") => (agent === "a" ? { id: tenant.agentId, workspace: tenant.workspaceId } : agent === "b" ? { id: agentB, workspace: tenant.workspaceId } : { id: other.agentId, workspace: other.workspaceId });
    const visitors = new Map<string, "a" | "b" | "other">();
    for (const conversation of CONVERSATIONS) visitors.set(conversation.visitor, conversation.agent);
    for (const [visitor, agent] of visitors) {
      await db.query(`INSERT INTO visitors (id, agent_id, anon_id) VALUES ($1, $2, $1)`, [visitor, agentOf(agent).id]);
    }
    let messageNumber = 0;
    for (const conversation of CONVERSATIONS) {
      const agent = agentOf(conversation.agent);
      const at = (seconds: number) => new Date(Date.parse(conversation.createdAt) + seconds * 1000).toISOString();
      await db.query(
        `INSERT INTO conversations (id, workspace_id, agent_id, visitor_id, created_at, last_activity_at, handed_to_human_at, satisfaction_rating, satisfaction_at)
         VALUES ($1, $2, $3, $4, $5::timestamptz, $5::timestamptz, $6::timestamptz, $7, CASE WHEN $7::text IS NULL THEN NULL ELSE $5::timestamptz END)`,
        [
          conversation.id,
          agent.workspace,
          agent.id,
          conversation.visitor,
          conversation.createdAt,
          conversation.handedAfterSeconds === undefined ? null : at(conversation.handedAfterSeconds),
          conversation.rating ?? null,
        ],
      );
      for (const [role, content, seconds, lowConfidence] of conversation.messages ?? []) {
        messageNumber += 1;
        await db.query(`INSERT INTO messages (id, conversation_id, role, content, low_confidence, created_at) VALUES ($1, $2, $3, $4, $5, $6)`, [
          `msg_${messageNumber}`,
          conversation.id,
          role,
          content,
          lowConfidence ?? false,
          at(seconds),
        ]);
      }
    }
    for (const [agent, visitor, event, at] of EVENTS) {
      const { id, workspace } = agentOf(agent);
      await db.query(`INSERT INTO events (workspace_id, agent_id, visitor_id, event, created_at) VALUES ($1, $2, $3, $4, $5)`, [workspace, id, visitor, event, at]);
    }
    for (const [index, [agent, visitor, at]] of LEADS.entries()) {
      const { id, workspace } = agentOf(agent);
      await db.query(
        `INSERT INTO leads (id, workspace_id, agent_id, visitor_id, email, email_normalized, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5, $6, $6)`,
        [`lead_${index}`, workspace, id, visitor, `lead${index}@example.com`, at],
      );
    }
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
      first_operator_reply: { median_seconds: 120, conversations: 3 },
      top_questions: [
        { question: "where is my order", count: 3 },
        { question: "do you ship abroad", count: 2 },
        { question: "hello", count: 1 },
        { question: "i want a human", count: 1 },
        { question: "thanks", count: 1 },
      ],
      funnel: { launcher_opened: 5, conversations: 7, leads: 2 },
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
      first_operator_reply: { median_seconds: null, conversations: 0 },
      top_questions: [],
      funnel: { launcher_opened: 0, conversations: 0, leads: 0 },
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
