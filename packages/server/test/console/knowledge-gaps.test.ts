import { afterAll, beforeAll, expect, it } from "vitest";
import { CONSOLE, createSignedInOperator, type ConsoleSession } from "../support/console-session.js";
import { seedTenant, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

/** One exchange: [agent, visitor question, bot answer low-confidence?, time of the answer]. */
const EXCHANGES: [agent: "a" | "other", question: string, lowConfidence: boolean, at: string][] = [
  ["a", "Do you sell kayaks?", true, "2026-03-01T10:00:00Z"],
  ["a", "do you sell KAYAKS!!", true, "2026-03-02T10:00:00Z"],
  ["a", "Hi, do you guys sell kayaks", true, "2026-03-03T10:00:00Z"],
  ["a", "Can I rent a bike for the weekend?", true, "2026-03-02T11:00:00Z"],
  ["a", "Could I rent a bike this weekend", true, "2026-03-04T11:00:00Z"],
  ["a", "What is the weather in Paris?", true, "2026-03-03T12:00:00Z"],
  ["a", "Who is your CEO?", true, "2026-03-05T12:00:00Z"],
  // A confident answer, one outside the period, and another workspace's agent: not gaps.
  ["a", "Where is my order?", false, "2026-03-02T12:00:00Z"],
  ["a", "Do you sell kayaks?", true, "2026-02-28T23:59:59Z"],
  ["other", "Do you sell kayaks?", true, "2026-03-02T10:00:00Z"],
];

describeEachStore("the console's knowledge gaps on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let other: Tenant;
  let admin: ConsoleSession;
  let agentOperator: ConsoleSession;

  beforeAll(async () => {
    t = await createTestApp(kind);
    tenant = await seedTenant(t.services);
    other = await seedTenant(t.services);
    admin = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "admin" });
    agentOperator = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "agent" });
    const { db } = t.services;
    for (const [index, [agent, question, lowConfidence, at]] of EXCHANGES.entries()) {
      const owner = agent === "a" ? tenant : other;
      const visitor = `vis_gap_${index}`;
      const conversation = `cnv_gap_${index}`;
      const asked = new Date(Date.parse(at) - 2000).toISOString();
      await db.query(`INSERT INTO visitors (id, agent_id, anon_id) VALUES ($1, $2, $1)`, [visitor, owner.agentId]);
      await db.query(
        `INSERT INTO conversations (id, workspace_id, agent_id, visitor_id, created_at, last_activity_at) VALUES ($1, $2, $3, $4, $5, $5)`,
        [conversation, owner.workspaceId, owner.agentId, visitor, asked],
      );
      // An earlier exchange in the same conversation: only the question just before the reply counts.
      await db.query(`INSERT INTO messages (id, conversation_id, role, content, created_at) VALUES ($1, $2, 'visitor', 'hello', $3)`, [`msg_gap_${index}_0`, conversation, asked]);
      await db.query(`INSERT INTO messages (id, conversation_id, role, content, created_at) VALUES ($1, $2, 'visitor', $3, $4)`, [`msg_gap_${index}_1`, conversation, question, asked]);
      await db.query(`INSERT INTO messages (id, conversation_id, role, content, low_confidence, created_at) VALUES ($1, $2, 'bot', 'I am not sure.', $3, $4)`, [
        `msg_gap_${index}_2`,
        conversation,
        lowConfidence,
        at,
      ]);
    }
  });
  afterAll(() => t.close());

  const gaps = (session: ConsoleSession | null, query: string) =>
    t.app.inject({ method: "GET", url: `${CONSOLE}/knowledge-gaps${query}`, ...(session ? { headers: session.headers } : {}) });

  it("happy: groups the low-confidence questions of the period by similarity, most frequent first, then most recent", async () => {
    const response = await gaps(agentOperator, `?agent_id=${tenant.agentId}&from=2026-03-01&to=2026-03-07`);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual({
      agent_id: tenant.agentId,
      from: "2026-03-01",
      to: "2026-03-07",
      gaps: [
        { question: "Hi, do you guys sell kayaks", count: 3, last_asked_at: "2026-03-03T10:00:00.000Z", questions: ["hi do you guys sell kayaks", "do you sell kayaks"], curated_answer_id: null },
        { question: "Could I rent a bike this weekend", count: 2, last_asked_at: "2026-03-04T11:00:00.000Z", questions: ["could i rent a bike this weekend", "can i rent a bike for the weekend"], curated_answer_id: null },
        { question: "Who is your CEO?", count: 1, last_asked_at: "2026-03-05T12:00:00.000Z", questions: ["who is your ceo"], curated_answer_id: null },
        { question: "What is the weather in Paris?", count: 1, last_asked_at: "2026-03-03T12:00:00.000Z", questions: ["what is the weather in paris"], curated_answer_id: null },
      ],
    });
  });

  it("happy: a group whose question a curated answer now answers says which (\"Answer it\" done)", async () => {
    const created = await t.app.inject({
      method: "POST",
      url: `${CONSOLE}/curated-answers`,
      headers: admin.headers,
      payload: { agent_id: tenant.agentId, question: "Can I rent a bike at the weekend?", answer: "Yes, from Friday to Monday." },
    });
    expect(created.statusCode).toBe(201);
    const response = await gaps(agentOperator, `?agent_id=${tenant.agentId}&from=2026-03-01&to=2026-03-07`);
    const shown = (response.json().data.gaps as { question: string; count: number; curated_answer_id: string | null }[]).map((gap) => [gap.question, gap.count, gap.curated_answer_id]);
    expect(shown).toEqual([
      ["Hi, do you guys sell kayaks", 3, null],
      ["Could I rent a bike this weekend", 2, created.json().data.id],
      ["Who is your CEO?", 1, null],
      ["What is the weather in Paris?", 1, null],
    ]);
    await t.app.inject({ method: "DELETE", url: `${CONSOLE}/curated-answers/${created.json().data.id}`, headers: admin.headers });
  });

  it("happy: a period without low-confidence answers has no gaps", async () => {
    const response = await gaps(admin, `?agent_id=${tenant.agentId}&from=2026-04-01&to=2026-04-02`);
    expect(response.statusCode).toBe(200);
    expect(response.json().data.gaps).toEqual([]);
  });

  it("security: another workspace's agent is 404; without a session 401", async () => {
    const foreign = await gaps(admin, `?agent_id=${other.agentId}&from=2026-03-01&to=2026-03-07`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe("agent_not_found");
    expect((await gaps(null, `?agent_id=${tenant.agentId}`)).statusCode).toBe(401);
  });

  it("error: an invalid query is 422", async () => {
    for (const query of ["", `?agent_id=${tenant.agentId}&from=2026-13-01`, `?agent_id=${tenant.agentId}&from=2026-03-07&to=2026-03-01`, "?agent_id=a%20b"]) {
      const response = await gaps(admin, query);
      expect(response.statusCode, query).toBe(422);
      expect(response.json().error.code).toBe("validation_failed");
    }
  });
});
