import { afterAll, beforeAll, expect, it } from "vitest";
import type { Queryable } from "../../src/db/database.js";
import { lockVisitorOfWorkspace } from "../../src/conversations/visitor-data.js";
import { deleteVisitorData } from "../../src/privacy/delete-visitor-data.js";
import { purgeStaleConversationBatch } from "../../src/privacy/purge-stale-conversation-batch.js";
import { exportVisitorData } from "../../src/privacy/export-visitor-data.js";
import { findUserVisitor } from "../../src/privacy/find-user-visitor.js";
import { explaining, type PlanNode } from "../support/query-plans.js";
import { createTestDatabase, describeEachStore, type TestDatabase } from "../support/test-database.js";

/**
 * Erasure, export and the retention purge on a store of some size (4 workspaces, 40 agents, 6,000
 * visitors and conversations, 12,000 messages, 6,000 events, 6,000 leads, 6,000 notifications and
 * read marks, planner statistics up to date): every statement reaches its rows through an index and
 * never scans a big table whole, on PGlite as on Postgres.
 */
describeEachStore("erasure, export and retention use their indexes on %s", (kind) => {
  let database: TestDatabase;
  /** Visitor g is agent (g % 40 + 1)'s, whose workspace is ((g % 40 + 1) % 4 + 1). */
  const workspaceOfVisitor = (g: number) => `ws_${((g % 40) + 1) % 4 + 1}`;
  const agentOfVisitor = (g: number) => `agt_${(g % 40) + 1}`;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const { db } = database;
    await db.query(`INSERT INTO workspaces (id, name) SELECT 'ws_' || g, 'w' FROM generate_series(1, 4) g`);
    await db.query(`INSERT INTO agents (id, workspace_id, name, persona_name) SELECT 'agt_' || g, 'ws_' || (g % 4 + 1), 'a', 'p' FROM generate_series(1, 40) g`);
    await db.query(`INSERT INTO operators (id, workspace_id, email, name, role) SELECT 'op_' || g, 'ws_' || g, 'op' || g || '@x.test', 'o', 'admin' FROM generate_series(1, 4) g`);
    // Every other visitor is a site's verified user (migration 0047).
    await db.query(`INSERT INTO visitors (id, agent_id, anon_id, user_id, user_verified_at)
      SELECT 'vis_' || g, 'agt_' || (g % 40 + 1), 'anon' || g, CASE WHEN g % 2 = 0 THEN 'user' || g END, CASE WHEN g % 2 = 0 THEN now() END FROM generate_series(1, 6000) g`);
    await db.query(`INSERT INTO conversations (id, workspace_id, agent_id, visitor_id, created_at, last_activity_at)
      SELECT 'cnv_' || g, 'ws_' || ((g % 40 + 1) % 4 + 1), 'agt_' || (g % 40 + 1), 'vis_' || g, now() - g * interval '1 hour', now() - g * interval '1 hour'
      FROM generate_series(1, 6000) g`);
    await db.query(`INSERT INTO messages (id, conversation_id, role, content)
      SELECT 'msg_' || g, 'cnv_' || (g % 6000 + 1), 'visitor', 'question ' || g FROM generate_series(1, 12000) g`);
    await db.query(`INSERT INTO events (workspace_id, agent_id, conversation_id, visitor_id, event)
      SELECT 'ws_' || ((g % 40 + 1) % 4 + 1), 'agt_' || (g % 40 + 1), 'cnv_' || g, 'vis_' || g, 'launcher.open' FROM generate_series(1, 6000) g`);
    await db.query(`INSERT INTO leads (id, workspace_id, agent_id, conversation_id, visitor_id, email, email_normalized)
      SELECT 'lead_' || g, 'ws_' || ((g % 40 + 1) % 4 + 1), 'agt_' || (g % 40 + 1), 'cnv_' || g, 'vis_' || g, 'v' || g || '@x.test', 'v' || g || '@x.test'
      FROM generate_series(1, 6000) g`);
    await db.query(`INSERT INTO inbox_notifications (id, workspace_id, operator_id, kind, conversation_id)
      SELECT 'ntf_' || g, 'ws_' || ((g % 40 + 1) % 4 + 1), 'op_' || ((g % 40 + 1) % 4 + 1), 'human.requested', 'cnv_' || g FROM generate_series(1, 6000) g`);
    await db.query(`INSERT INTO conversation_reads (operator_id, conversation_id, last_read_seq)
      SELECT 'op_' || ((g % 40 + 1) % 4 + 1), 'cnv_' || g, 1 FROM generate_series(1, 6000) g`);
    await db.query(`ANALYZE`);
  }, 180_000);
  afterAll(async () => {
    await database.drop();
  });

  const plansOf = async (work: (tx: Queryable) => Promise<unknown>): Promise<PlanNode[]> => {
    const plans: PlanNode[][] = [];
    await database.db.transaction(async (tx) => {
      await work(explaining(tx, plans));
    });
    return plans.flat();
  };
  const indexesOf = (nodes: PlanNode[]) => nodes.map((node) => node["Index Name"]).filter(Boolean);
  const BIG_TABLES = ["visitors", "conversations", "messages", "events", "leads", "inbox_notifications", "conversation_reads"];
  const bigScans = (nodes: PlanNode[]) => nodes.filter((node) => node["Node Type"] === "Seq Scan" && BIG_TABLES.includes(node["Relation Name"] ?? ""));

  it("happy: erasure and export by user id find the verified user's visitor through visitors_agent_user_idx", async () => {
    let found: string | null = null;
    const plans = await plansOf(async (tx) => {
      found = await findUserVisitor(tx, { workspaceId: workspaceOfVisitor(42), agentId: agentOfVisitor(42), userId: "user42" });
    });
    expect(found).toBe("vis_42");
    expect(indexesOf(plans)).toContain("visitors_agent_user_idx");
    expect(bigScans(plans)).toEqual([]);
  });

  it("happy: a visitor's erasure locks and deletes through indexes", async () => {
    const g = 41;
    const nodes = await plansOf(async (tx) => {
      const visitor = await lockVisitorOfWorkspace(tx, workspaceOfVisitor(g), `vis_${g}`);
      expect(visitor).not.toBeNull();
      await deleteVisitorData(tx, visitor!);
    });
    expect(bigScans(nodes)).toEqual([]);
    expect(indexesOf(nodes)).toEqual(
      expect.arrayContaining([
        "visitors_pkey",
        "conversations_visitor_recent_idx",
        "inbox_notifications_conversation_idx",
        "conversation_reads_conversation_idx",
        "events_visitor_idx",
        "events_conversation_idx",
        "leads_visitor_idx",
        "leads_conversation_idx",
      ]),
    );
  });

  it("happy: a visitor's export reads through indexes", async () => {
    const g = 43;
    const plans: PlanNode[][] = [];
    await database.db.transaction(async (tx) => {
      const exported = await exportVisitorData({ transaction: (work) => work(explaining(tx, plans)) }, { workspaceId: workspaceOfVisitor(g), visitorId: `vis_${g}`, now: new Date() });
      expect(exported?.agent_id).toBe(agentOfVisitor(g));
      expect(exported?.conversations).toHaveLength(1);
    });
    const nodes = plans.flat();
    expect(bigScans(nodes)).toEqual([]);
    expect(indexesOf(nodes)).toEqual(expect.arrayContaining(["visitors_pkey", "conversations_visitor_recent_idx"]));
  });

  it("happy: a retention batch picks the workspace's stale conversations by activity and deletes through indexes", async () => {
    const nodes = await plansOf(async (tx) => {
      const batch = await purgeStaleConversationBatch(tx, { workspaceId: "ws_2", before: new Date(Date.now() - 5000 * 3600 * 1000), limit: 20, includeLeads: true });
      expect(batch.conversations.length).toBeGreaterThan(0);
    });
    expect(bigScans(nodes)).toEqual([]);
    expect(indexesOf(nodes)).toEqual(
      expect.arrayContaining(["conversations_workspace_activity_idx", "inbox_notifications_conversation_idx", "events_conversation_idx", "leads_conversation_idx"]),
    );
  });
});
