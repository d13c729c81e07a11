import { afterAll, beforeAll, expect, it } from "vitest";
import type { Queryable } from "../../src/db/database.js";
import { listAnswerReviews } from "../../src/conversations/answer-review-repository.js";
import { countDailyOutcomes, countFunnel, listTopQuestions, medianFirstOperatorReply } from "../../src/conversations/conversation-analytics-repository.js";
import { listWorkspaceLeads } from "../../src/widget/lead-list-repository.js";
import { indexesOf, plansOf, scansOf, type PlanNode } from "../support/query-plans.js";
import { createTestDatabase, describeEachStore, type TestDatabase } from "../support/test-database.js";

/**
 * The console's leads, analytics, review queue and settings reads on a store of some size (20 workspaces,
 * 40 agents, 6,000 conversations, 12,000 messages, 5,000 leads, 8,000 events, planner
 * statistics up to date): the plan each store chooses reads the index made for it, and never
 * scans a big table whole, on PGlite as on Postgres.
 */
describeEachStore("the console's reports use their indexes on %s", (kind) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const { db } = database;
    await db.query(`INSERT INTO workspaces (id, name) SELECT 'ws_' || g, 'w' FROM generate_series(1, 20) g`);
    await db.query(`INSERT INTO agents (id, workspace_id, name, persona_name) SELECT 'agt_' || g, 'ws_' || (g % 20 + 1), 'a', 'p' FROM generate_series(1, 40) g`);
    await db.query(`INSERT INTO operators (id, workspace_id, email, name, role) SELECT 'op_' || g, 'ws_' || (g % 20 + 1), 'o' || g || '@x.test', 'o', 'agent' FROM generate_series(1, 100) g`);
    await db.query(`INSERT INTO visitors (id, agent_id, anon_id) SELECT 'vis_' || g, 'agt_' || (g % 40 + 1), 'anon' || g FROM generate_series(1, 6000) g`);
    await db.query(`INSERT INTO conversations (id, workspace_id, agent_id, visitor_id, created_at, last_activity_at)
      SELECT 'cnv_' || g, 'ws_' || ((g % 40 + 1) % 20 + 1), 'agt_' || (g % 40 + 1), 'vis_' || g, now() - g * interval '10 minutes', now()
      FROM generate_series(1, 6000) g`);
    await db.query(`INSERT INTO messages (id, conversation_id, role, content, low_confidence, created_at)
      SELECT 'msg_' || g, 'cnv_' || (g % 6000 + 1), CASE WHEN g % 3 = 0 THEN 'bot' WHEN g % 3 = 1 THEN 'visitor' ELSE 'operator' END,
        'question ' || (g % 50), g % 7 = 0, now() - g * interval '1 minute' FROM generate_series(1, 12000) g`);
    await db.query(`INSERT INTO leads (id, workspace_id, agent_id, visitor_id, email, email_normalized, name, created_at)
      SELECT 'lead_' || g, 'ws_' || ((g % 40 + 1) % 20 + 1), 'agt_' || (g % 40 + 1), 'vis_' || (g % 6000 + 1), 'l' || g || '@x.test', 'l' || g || '@x.test',
        'Name ' || g, now() - g * interval '1 minute' FROM generate_series(1, 5000) g`);
    await db.query(`INSERT INTO events (workspace_id, agent_id, visitor_id, event, created_at)
      SELECT 'ws_' || ((g % 40 + 1) % 20 + 1), 'agt_' || (g % 40 + 1), 'vis_' || (g % 6000 + 1), CASE WHEN g % 4 = 0 THEN 'launcher.open' ELSE 'cta.click' END,
        now() - g * interval '1 minute' FROM generate_series(1, 8000) g`);
    await db.query(`ANALYZE`);
    // About 30 s on PGlite (its store alone takes 20), more on a loaded machine.
  }, 180_000);
  afterAll(async () => {
    await database.drop();
  });

  const plans = (read: (tx: Queryable) => Promise<unknown>) => plansOf(database.db, read);
  const BIG_TABLES = ["conversations", "messages", "leads", "events"];
  const bigScans = (nodes: PlanNode[]) => scansOf(nodes, BIG_TABLES);

  it("happy: the lead list reads the workspace's (or the agent's) newest-first index, first page, after a cursor and searching", async () => {
    const after = { createdMicroseconds: String((Date.now() - 3_600_000) * 1000), id: "lead_60" };
    for (const filter of [
      { workspaceId: "ws_3", limit: 51 },
      { workspaceId: "ws_3", limit: 51, after },
      { workspaceId: "ws_3", limit: 51, search: "l12" },
    ]) {
      const nodes = await plans((tx) => listWorkspaceLeads(tx, filter));
      expect(indexesOf(nodes), JSON.stringify(filter)).toContain("leads_workspace_created_idx");
      expect(bigScans(nodes)).toEqual([]);
    }
    const nodes = await plans((tx) => listWorkspaceLeads(tx, { workspaceId: "ws_3", agentId: "agt_2", limit: 51, after }));
    expect(indexesOf(nodes)).toEqual(expect.arrayContaining([expect.stringMatching(/^leads_(agent|workspace)_created_idx$/)]));
    expect(bigScans(nodes)).toEqual([]);
  });

  it("happy: the review queue walks the bot answers (or the rated-down ones) newest first, never a big table whole, each filter and page", async () => {
    await database.db.query(`UPDATE messages SET rating = 'down', rated_at = created_at WHERE role = 'bot' AND id LIKE 'msg_%7'`);
    await database.db.query(`ANALYZE messages`);
    const after = { createdMicroseconds: String((Date.now() - 600_000) * 1000), id: "msg_30" };
    const period = { from: new Date(Date.now() - 3 * 86_400_000), to: new Date() };
    for (const filter of [
      { workspaceId: "ws_3", limit: 26 },
      { workspaceId: "ws_3", limit: 26, after },
      { workspaceId: "ws_3", limit: 26, rating: "down" as const },
      { workspaceId: "ws_3", agentId: "agt_2", limit: 26, lowConfidence: true, after },
      { workspaceId: "ws_3", limit: 26, noCitation: true, curated: false, ...period },
    ]) {
      const nodes = await plans((tx) => listAnswerReviews(tx, filter));
      expect(indexesOf(nodes).length, JSON.stringify(filter)).toBeGreaterThan(0);
      expect(bigScans(nodes), JSON.stringify(filter)).toEqual([]);
    }
    const down = await plans((tx) => listAnswerReviews(tx, { workspaceId: "ws_3", limit: 26, rating: "down" }));
    expect(indexesOf(down)).toEqual(expect.arrayContaining([expect.stringMatching(/^messages_(rated_down|bot_created)_idx$/)]));
  });

  it("happy: every analytics query reads the agent's conversations by creation time, their messages by conversation, events and leads by agent", async () => {
    const scope = { workspaceId: "ws_4", agentId: "agt_3", from: new Date(Date.now() - 7 * 86_400_000), to: new Date() };
    for (const read of [
      (tx: Queryable) => countDailyOutcomes(tx, scope),
      (tx: Queryable) => medianFirstOperatorReply(tx, scope),
      (tx: Queryable) => listTopQuestions(tx, scope, 10),
    ]) {
      const nodes = await plans(read);
      expect(indexesOf(nodes)).toContain("conversations_agent_created_idx");
      expect(indexesOf(nodes).some((name) => String(name).startsWith("messages_conversation_"))).toBe(true);
      expect(bigScans(nodes)).toEqual([]);
    }
    const funnel = await plans((tx) => countFunnel(tx, scope));
    expect(indexesOf(funnel)).toEqual(expect.arrayContaining(["events_agent_event_created_idx", "conversations_agent_created_idx"]));
    // Leads of the agent in the period: through leads_agent_created_idx, or both stores combine the agent's and the workspace's indexes.
    expect(indexesOf(funnel).some((name) => String(name).startsWith("leads_"))).toBe(true);
    expect(bigScans(funnel)).toEqual([]);
  });
});
