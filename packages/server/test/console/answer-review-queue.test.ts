import { afterAll, beforeAll, expect, it } from "vitest";
import { seedAnalyticsWeek } from "../support/analytics-week.js";
import { CONSOLE, type ConsoleSession, seedConsoleCast } from "../support/console-session.js";
import type { Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

/**
 * GET /console/answers, the review queue (issue 31, part 4), on the analytics' seeded week: its bot
 * answers are msg_rq2 ("In transit."), msg_rq4 ("Maybe?", unsure, 👎), msg_rq6 ("Yes.", 👍), msg_rq7
 * ("Perhaps.", unsure), msg_rq9 ("Sure.", 👍) of agent a, and msg_rq24 of agent b.
 */
describeEachStore("the console's review queue on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let admin: ConsoleSession;
  let agentOperator: ConsoleSession;
  let outsider: ConsoleSession;
  const agentB = "agt_review_b";
  const trace = {
    decided_by: "composition",
    sure: false,
    reason: "weak_match",
    unknown_words: ["parcel"],
    generator: "extractive",
    turned_unsure: false,
    fell_back: false,
    passages: [{ url: "https://shop.example.com/help/delivery", title: "Delivery times", heading: null, excerpt: "Standard delivery…", cited: true }],
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    let other: Tenant;
    ({ tenant, other, admin, agentOperator, outsider } = await seedConsoleCast(t));
    await t.services.db.query(`INSERT INTO agents (id, workspace_id, name, persona_name) VALUES ($1, $2, 'B', 'B')`, [agentB, tenant.workspaceId]);
    await seedAnalyticsWeek(t.services.db, { a: tenant, b: { workspaceId: tenant.workspaceId, agentId: agentB }, other }, "rq");
    await t.services.db.query(`UPDATE messages SET curated_answer_id = 'cur_1' WHERE id = 'msg_rq2'`);
    await t.services.db.query(`UPDATE messages SET citations = '[{"id":1,"url":"https://shop.example.com/help/delivery","title":"Delivery times"}]' WHERE id = 'msg_rq6'`);
    await t.services.db.query(`UPDATE messages SET answer_trace = $1::jsonb, rating_comment = 'Not an answer' WHERE id = 'msg_rq4'`, [JSON.stringify(trace)]);
  });
  afterAll(() => t.close());

  const list = async (session: ConsoleSession, query = "") => {
    const response = await t.app.inject({ method: "GET", url: `${CONSOLE}/answers${query}`, headers: session.headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { data: { id: string; question: string; [member: string]: unknown }[]; next_cursor: string | null };
  };
  const ids = async (query: string) => (await list(agentOperator, query)).data.map((item) => item.id);

  it("happy: every bot answer of the workspace, newest first, with its question, answer, flags, citations, the stored reason and the rating", async () => {
    const page = await list(agentOperator);
    expect(page.data.map((item) => item.id)).toEqual(["msg_rq9", "msg_rq24", "msg_rq7", "msg_rq6", "msg_rq4", "msg_rq2"]);
    expect(page.next_cursor).toBeNull();
    const byId = new Map(page.data.map((item) => [item.id, item]));
    // The question is the visitor's message before the answer, past another bot answer.
    expect(byId.get("msg_rq7")).toMatchObject({ question: "Do you ship abroad?", answer: "Perhaps.", low_confidence: true, rating: null, trace: null });
    expect(byId.get("msg_rq4")).toEqual({
      id: "msg_rq4",
      conversation_id: "cnv_rq2",
      agent_id: tenant.agentId,
      question: "where is my   ORDER",
      answer: "Maybe?",
      citations: [],
      low_confidence: true,
      curated_answer_id: null,
      trace,
      rating: { rating: "down", comment: "Not an answer", rated_at: "2026-03-01T12:00:06.000Z" },
      created_at: "2026-03-01T12:00:06.000Z",
    });
    expect(byId.get("msg_rq6")).toMatchObject({ citations: [{ id: 1, url: "https://shop.example.com/help/delivery", title: "Delivery times" }] });
    expect(byId.get("msg_rq2")).toMatchObject({ curated_answer_id: "cur_1", question: "Where is my order?" });
  });

  it("happy: each filter, and filters combined", async () => {
    expect(await ids("?rating=down")).toEqual(["msg_rq4"]);
    expect(await ids("?rating=up")).toEqual(["msg_rq9", "msg_rq6"]);
    expect(await ids("?low_confidence=true")).toEqual(["msg_rq7", "msg_rq4"]);
    expect(await ids("?low_confidence=false")).toEqual(["msg_rq9", "msg_rq24", "msg_rq6", "msg_rq2"]);
    expect(await ids("?no_citation=true")).toEqual(["msg_rq9", "msg_rq24", "msg_rq7", "msg_rq4", "msg_rq2"]);
    expect(await ids("?curated=true")).toEqual(["msg_rq2"]);
    expect(await ids("?curated=false")).toEqual(["msg_rq9", "msg_rq24", "msg_rq7", "msg_rq6", "msg_rq4"]);
    expect(await ids(`?agent_id=${agentB}`)).toEqual(["msg_rq24"]);
    expect(await ids("?from=2026-03-02&to=2026-03-02")).toEqual(["msg_rq24", "msg_rq7", "msg_rq6"]);
    expect(await ids("?from=2026-03-03")).toEqual(["msg_rq9"]);
    expect(await ids("?to=2026-03-01")).toEqual(["msg_rq4", "msg_rq2"]);
    expect(await ids(`?agent_id=${tenant.agentId}&low_confidence=true&rating=down`)).toEqual(["msg_rq4"]);
    expect(await ids(`?agent_id=${agentB}&rating=down`)).toEqual([]);
  });

  it("happy: pages follow next_cursor to the end, each answer once", async () => {
    const first = await list(admin, "?limit=2");
    expect(first.data.map((item) => item.id)).toEqual(["msg_rq9", "msg_rq24"]);
    const second = await list(admin, `?limit=2&cursor=${first.next_cursor}`);
    expect(second.data.map((item) => item.id)).toEqual(["msg_rq7", "msg_rq6"]);
    const third = await list(admin, `?limit=2&cursor=${second.next_cursor}`);
    expect(third.data.map((item) => item.id)).toEqual(["msg_rq4", "msg_rq2"]);
    expect(third.next_cursor).toBeNull();
    const filtered = await list(admin, "?limit=1&low_confidence=true");
    expect((await list(admin, `?limit=1&low_confidence=true&cursor=${filtered.next_cursor}`)).data.map((item) => item.id)).toEqual(["msg_rq4"]);
  });

  it("security: another workspace's operator sees none of them, and an agent of theirs filters to nothing", async () => {
    expect((await list(outsider)).data).toEqual([]);
    expect((await list(outsider, `?agent_id=${tenant.agentId}`)).data).toEqual([]);
    const anonymous = await t.app.inject({ method: "GET", url: `${CONSOLE}/answers` });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe("unauthenticated");
  });

  it("error: a bad filter, date, cursor or limit is 422 naming it", async () => {
    for (const [query, field] of [
      ["?rating=meh", "querystring.rating"],
      ["?low_confidence=yes", "querystring.low_confidence"],
      ["?no_citation=1", "querystring.no_citation"],
      ["?curated=maybe", "querystring.curated"],
      ["?from=2026-02-30", "querystring.from"],
      ["?from=2026-03-05&to=2026-03-01", "querystring.from"],
      ["?cursor=bm90LWEtY3Vyc29y", "querystring.cursor"],
      ["?limit=0", "querystring.limit"],
      ["?limit=101", "querystring.limit"],
      ["?agent_id=not%20an%20id", "querystring.agent_id"],
    ] as const) {
      const response = await t.app.inject({ method: "GET", url: `${CONSOLE}/answers${query}`, headers: admin.headers });
      expect(response.statusCode, query).toBe(422);
      expect(response.json().error.code).toBe("validation_failed");
      expect(Object.keys(response.json().error.fields), query).toContain(field);
    }
  });
});
