import { afterAll, beforeAll, expect, it } from "vitest";
import type { Queryable } from "../../src/db/database.js";
import { countConversationsPerLabel } from "../../src/conversations/conversation-analytics-repository.js";
import { countLabelledConversations, listLabelIdsOfConversations } from "../../src/conversations/conversation-label-repository.js";
import { listWorkspaceConversations } from "../../src/conversations/conversation-list-repository.js";
import { findConversationVisitor, listVisitorAnswerRatings, listVisitorConversationSummaries } from "../../src/conversations/visitor-profile-repository.js";
import { indexesOf, plansOf, scansOf, type PlanNode } from "../support/query-plans.js";
import { createTestDatabase, describeEachStore, type TestDatabase } from "../support/test-database.js";

/**
 * Labels' and the visitor profile's reads on a store of some size (20 workspaces, 5,000
 * conversations of 1,000 visitors, 25,000 messages, 100 labels on 4,000 conversations, planner
 * statistics up to date): each reads the index made for it, on PGlite as on Postgres.
 */
describeEachStore("labels' and the visitor profile's reads use their indexes on %s", (kind) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const { db } = database;
    await db.query(`INSERT INTO workspaces (id, name) SELECT 'ws_' || g, 'w' FROM generate_series(1, 20) g`);
    await db.query(`INSERT INTO agents (id, workspace_id, name, persona_name) SELECT 'agt_' || g, 'ws_' || g, 'a', 'p' FROM generate_series(1, 20) g`);
    await db.query(`INSERT INTO visitors (id, agent_id, anon_id) SELECT 'vis_' || g, 'agt_' || (g % 20 + 1), 'anon' || g FROM generate_series(1, 1000) g`);
    await db.query(`INSERT INTO conversations (id, workspace_id, agent_id, visitor_id, last_activity_at, created_at)
      SELECT 'cnv_' || g, 'ws_' || (g % 20 + 1), 'agt_' || (g % 20 + 1), 'vis_' || (g % 1000 + 1), now() - g * interval '1 minute', now() - g * interval '1 minute'
      FROM generate_series(1, 5000) g`);
    await db.query(`INSERT INTO messages (id, conversation_id, role, content, conversation_seq, rating, rated_at)
      SELECT 'msg_' || g, 'cnv_' || (g % 5000 + 1), CASE WHEN g % 2 = 0 THEN 'visitor' ELSE 'bot' END, 'message ' || g, g / 5000 + 1,
        CASE WHEN g % 10 = 1 THEN 'up' END, CASE WHEN g % 10 = 1 THEN now() END FROM generate_series(1, 25000) g`);
    await db.query(`INSERT INTO labels (id, workspace_id, name, colour) SELECT 'lbl_' || g, 'ws_' || (g % 20 + 1), 'label ' || g, '#112233' FROM generate_series(1, 100) g`);
    // Each conversation of the first 4,000 carries one of its workspace's five labels.
    await db.query(`INSERT INTO conversation_labels (conversation_id, label_id, workspace_id)
      SELECT 'cnv_' || g, 'lbl_' || ((g % 20) + 1 + 20 * (g % 5)), 'ws_' || (g % 20 + 1) FROM generate_series(1, 4000) g`);
    await db.query(`ANALYZE`);
  }, 180_000);
  afterAll(async () => {
    await database.drop();
  });

  const plans = (read: (tx: Queryable) => Promise<unknown>) => plansOf(database.db, read);
  const bigScans = (nodes: PlanNode[]) => scansOf(nodes, ["conversations", "messages", "conversation_labels"]);

  it("happy: the inbox's label filter reads the label's index; a page's labels and the workspace's counts read theirs", async () => {
    const filtered = await plans((tx) => listWorkspaceConversations(tx, { workspaceId: "ws_3", operatorId: "op_1", labelId: "lbl_2", limit: 26 }));
    expect(indexesOf(filtered)).toContain("conversation_labels_label_idx");
    expect(bigScans(filtered)).toEqual([]);
    const ofPage = await plans((tx) => listLabelIdsOfConversations(tx, "ws_3", ["cnv_2", "cnv_22", "cnv_42"]));
    expect(indexesOf(ofPage)).toContain("conversation_labels_pkey");
    const counts = await plans((tx) => countLabelledConversations(tx, "ws_3"));
    expect(indexesOf(counts)).toContain("conversation_labels_workspace_idx");
    expect(bigScans([...ofPage, ...counts])).toEqual([]);
  });

  it("happy: analytics per label reads the agent's period first, then each conversation's labels", async () => {
    const scope = { workspaceId: "ws_3", agentId: "agt_3", from: new Date(Date.now() - 86_400_000), to: new Date() };
    const nodes = await plans((tx) => countConversationsPerLabel(tx, scope));
    expect(indexesOf(nodes)).toEqual(expect.arrayContaining(["conversations_agent_created_idx"]));
    expect(bigScans(nodes)).toEqual([]);
  });

  it("happy: the visitor profile reads the conversation by its key, the visitor's conversations by their index, and their rated answers per conversation", async () => {
    const visitor = await plans((tx) => findConversationVisitor(tx, "ws_3", "cnv_2"));
    expect(indexesOf(visitor)).toContain("conversations_pkey");
    const scope = { workspaceId: "ws_3", visitorId: "vis_3", limit: 20 };
    const history = await plans((tx) => listVisitorConversationSummaries(tx, scope));
    expect(indexesOf(history)).toContain("conversations_visitor_recent_idx");
    const ratings = await plans((tx) => listVisitorAnswerRatings(tx, scope));
    expect(indexesOf(ratings)).toContain("conversations_visitor_recent_idx");
    // Then each conversation's messages by one of their per-conversation indexes (the planner picks which).
    expect(indexesOf(ratings).filter((name) => name.startsWith("messages_conversation_"))).not.toEqual([]);
    expect(bigScans([...visitor, ...history, ...ratings])).toEqual([]);
  });
});
