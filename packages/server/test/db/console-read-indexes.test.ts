import { afterAll, beforeAll, expect, it } from "vitest";
import type { Queryable } from "../../src/db/database.js";
import { insertVisitorQuestion } from "../../src/conversations/message-repository.js";
import { listWorkspaceConversations } from "../../src/conversations/conversation-list-repository.js";
import { listMessagesAfterSeq } from "../../src/conversations/message-listing-repository.js";
import { countUnreadInbox, listInboxPage } from "../../src/inbox/inbox-repository.js";
import { findVisitorLead } from "../../src/widget/lead-repository.js";
import { indexesOf, plansOf, scansOf, type PlanNode } from "../support/query-plans.js";
import { createTestDatabase, describeEachStore, type TestDatabase } from "../support/test-database.js";

/**
 * The console's reads on a store of some size (20 workspaces, 5,000 conversations, 27,000 messages,
 * 10,000 notifications, planner statistics up to date): the plan each store chooses reads the index
 * made for it, on PGlite as on Postgres.
 */
describeEachStore("the console's reads use their indexes on %s", (kind) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const { db } = database;
    await db.query(`INSERT INTO workspaces (id, name) SELECT 'ws_' || g, 'w' FROM generate_series(1, 20) g`);
    await db.query(`INSERT INTO agents (id, workspace_id, name, persona_name) SELECT 'agt_' || g, 'ws_' || g, 'a', 'p' FROM generate_series(1, 20) g`);
    await db.query(`INSERT INTO operators (id, workspace_id, email, name, role) SELECT 'op_' || g, 'ws_' || (g % 20 + 1), 'o' || g || '@x.test', 'o', 'agent' FROM generate_series(1, 100) g`);
    await db.query(`INSERT INTO visitors (id, agent_id, anon_id) SELECT 'vis_' || g, 'agt_' || (g % 20 + 1), 'anon' || g FROM generate_series(1, 5000) g`);
    await db.query(`INSERT INTO conversations (id, workspace_id, agent_id, visitor_id, last_activity_at)
      SELECT 'cnv_' || g, 'ws_' || (g % 20 + 1), 'agt_' || (g % 20 + 1), 'vis_' || g, now() - g * interval '1 minute' FROM generate_series(1, 5000) g`);
    await db.query(`INSERT INTO messages (id, conversation_id, role, content, conversation_seq)
      SELECT 'msg_' || g, 'cnv_' || (g % 5000 + 1), CASE WHEN g % 2 = 0 THEN 'visitor' ELSE 'bot' END,
        'word' || (g % 2000) || ' about order ' || g || ' and delivery', g / 5000 + 1 FROM generate_series(1, 25000) g`);
    // One long conversation (2,000 messages, the first 50 stored before seqs existed): where reading in the index's order pays.
    await db.query(`INSERT INTO conversations (id, workspace_id, agent_id, visitor_id) VALUES ('cnv_long', 'ws_8', 'agt_8', 'vis_7')`);
    await db.query(`INSERT INTO messages (id, conversation_id, role, content, conversation_seq)
      SELECT 'msg_long_' || g, 'cnv_long', 'visitor', 'message ' || g, CASE WHEN g > 50 THEN g - 50 END FROM generate_series(1, 2000) g`);
    await db.query(`INSERT INTO leads (id, workspace_id, agent_id, visitor_id, email, email_normalized)
      SELECT 'lead_' || g, 'ws_' || (g % 20 + 1), 'agt_' || (g % 20 + 1), 'vis_' || g, 'l' || g || '@x.test', 'l' || g || '@x.test' FROM generate_series(1, 2000) g`);
    await db.query(`INSERT INTO inbox_notifications (id, workspace_id, operator_id, kind, created_at, read_at)
      SELECT 'ntf_' || g, 'ws_' || ((g % 100 + 1) % 20 + 1), 'op_' || (g % 100 + 1), 'human_requested', now() - g * interval '1 second',
        CASE WHEN g % 3 = 0 THEN NULL ELSE now() END FROM generate_series(1, 10000) g`);
    await db.query(`ANALYZE`);
  }, 180_000);
  afterAll(async () => {
    await database.drop();
  });

  const plans = (read: (tx: Queryable) => Promise<unknown>) => plansOf(database.db, read);
  /** Scans of the big tables (small ones, like the workspace's operators, are rightly scanned). */
  const bigScans = (nodes: PlanNode[]) => scansOf(nodes, ["conversations", "messages", "inbox_notifications"]);
  const base = { workspaceId: "ws_3", operatorId: "op_2", limit: 26 };

  it("happy: the list reads the workspace's activity index (first page, and after a cursor)", async () => {
    expect(indexesOf(await plans((tx) => listWorkspaceConversations(tx, base)))).toContain("conversations_workspace_activity_idx");
    const after = { activityMicroseconds: String((Date.now() - 3_600_000) * 1000), id: "cnv_100" };
    const nodes = await plans((tx) => listWorkspaceConversations(tx, { ...base, after }));
    expect(indexesOf(nodes)).toContain("conversations_workspace_activity_idx");
    expect(bigScans(nodes)).toEqual([]);
  });

  it("happy: the snoozed view reads its partial index, the open view the activity index", async () => {
    await database.db.query(`UPDATE conversations SET snooze_id = 'snz-' || id WHERE id IN ('cnv_3', 'cnv_23', 'cnv_43')`);
    await database.db.query(`ANALYZE conversations`);
    const snoozed = await plans((tx) => listWorkspaceConversations(tx, { ...base, snoozed: true }));
    expect(indexesOf(snoozed)).toContain("conversations_workspace_snoozed_idx");
    expect(bigScans(snoozed)).toEqual([]);
    const open = await plans((tx) => listWorkspaceConversations(tx, { ...base, snoozed: false }));
    expect(indexesOf(open)).toContain("conversations_workspace_activity_idx");
    expect(bigScans(open)).toEqual([]);
  });

  it("happy: q finds messages through the GIN index on their words", async () => {
    const nodes = await plans((tx) => listWorkspaceConversations(tx, { ...base, search: "word123" }));
    expect(indexesOf(nodes)).toContain("messages_content_search_idx");
    expect(bigScans(nodes)).toEqual([]);
  });

  it("happy: catch-up, the bot's history, the visitor's lead and the inbox read their indexes", async () => {
    // The catch-up's own order (uncounted messages first): from 0 the scan reads the page in the index's order and stops, no sort;
    // above a seq the index starts the scan after it (the planner may then sort the few rows it expects).
    const fromStart = await plans((tx) => listMessagesAfterSeq(tx, { workspaceId: "ws_8", conversationId: "cnv_long", afterSeq: 0, limit: 100 }));
    expect(indexesOf(fromStart)).toContain("messages_conversation_catch_up_idx");
    expect(fromStart.filter((node) => node["Node Type"] === "Sort")).toEqual([]);
    const afterSeq = await plans((tx) => listMessagesAfterSeq(tx, { workspaceId: "ws_8", conversationId: "cnv_long", afterSeq: 1500, limit: 100 }));
    expect(indexesOf(afterSeq)).toContain("messages_conversation_catch_up_idx");
    expect(bigScans([...fromStart, ...afterSeq])).toEqual([]);
    // The bot's history: the statement storing a question reads the 8 messages before it backwards (its seqs are past the others').
    await database.db.query(`UPDATE conversations SET event_seq = 5000 WHERE id = 'cnv_long'`);
    const question = await plans((tx) => insertVisitorQuestion(tx, { conversationId: "cnv_long", content: "and my order?" }, "open", 8));
    expect(indexesOf(question)).toEqual(expect.arrayContaining(["messages_conversation_seq_idx", "conversations_pkey"]));
    expect(bigScans(question)).toEqual([]);
    expect(indexesOf(await plans((tx) => findVisitorLead(tx, "vis_42")))).toContain("leads_visitor_idx");
    const operator = { id: "op_2", workspaceId: "ws_4" };
    expect(indexesOf(await plans((tx) => listInboxPage(tx, operator, { limit: 51 })))).toContain("inbox_operator_order_idx");
    expect(indexesOf(await plans((tx) => countUnreadInbox(tx, operator)))).toContain("inbox_operator_order_idx");
  });
});
