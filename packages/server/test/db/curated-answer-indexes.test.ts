import { afterAll, beforeAll, expect, it } from "vitest";
import type { Queryable } from "../../src/db/database.js";
import { findWorkspaceCuratedAnswer, listAgentCuratedAnswers, listCuratedQuestionCandidates } from "../../src/console/curated/curated-answer-repository.js";
import { findQuestionOfBotMessage, listLowConfidenceQuestions } from "../../src/conversations/bot-reply-question-repository.js";
import { explaining, type PlanNode } from "../support/query-plans.js";
import { createTestDatabase, describeEachStore, type TestDatabase } from "../support/test-database.js";

/**
 * Curated answers and knowledge gaps on a store of some size (40 agents, 6,000 conversations,
 * 12,000 messages, 4,000 curated answers, 2,400 of them one agent's, planner statistics up to date): each read uses an
 * index and never scans a big table whole, on PGlite as on Postgres.
 */
describeEachStore("curated answers and knowledge gaps use their indexes on %s", (kind) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const { db } = database;
    await db.query(`INSERT INTO workspaces (id, name) SELECT 'ws_' || g, 'w' FROM generate_series(1, 20) g`);
    await db.query(`INSERT INTO agents (id, workspace_id, name, persona_name) SELECT 'agt_' || g, 'ws_' || (g % 20 + 1), 'a', 'p' FROM generate_series(1, 40) g`);
    await db.query(`INSERT INTO visitors (id, agent_id, anon_id) SELECT 'vis_' || g, 'agt_' || (g % 40 + 1), 'anon' || g FROM generate_series(1, 6000) g`);
    await db.query(`INSERT INTO conversations (id, workspace_id, agent_id, visitor_id, created_at, last_activity_at)
      SELECT 'cnv_' || g, 'ws_' || ((g % 40 + 1) % 20 + 1), 'agt_' || (g % 40 + 1), 'vis_' || g, now() - g * interval '10 minutes', now()
      FROM generate_series(1, 6000) g`);
    await db.query(`INSERT INTO messages (id, conversation_id, role, content, low_confidence, created_at)
      SELECT 'msg_' || g, 'cnv_' || (g % 6000 + 1), CASE WHEN g % 2 = 0 THEN 'bot' ELSE 'visitor' END,
        'question ' || (g % 50), g % 14 = 0, now() - (12000 - g) * interval '1 minute' FROM generate_series(1, 12000) g`);
    // agt_1 has 2,400 of them (a big agent). Questions of two content words each, from a vocabulary of
    // 400: a word is shared by about 10 questions in all, 6 of them agt_1's.
    await db.query(`INSERT INTO curated_answers (id, workspace_id, agent_id, question, question_normalised, question_stems, answer, created_at)
      SELECT 'cur_' || g, 'ws_' || (a % 20 + 1), 'agt_' || a, 'q ' || g, 'word' || (g % 400) || ' term' || (g % 397),
        ARRAY['word' || (g % 400), 'term' || (g % 397)], 'a', now() - g * interval '1 minute'
      FROM generate_series(1, 4000) g, LATERAL (SELECT CASE WHEN g <= 2400 THEN 1 ELSE g % 40 + 1 END AS a) agent`);
    await db.query(`ANALYZE`);
  }, 180_000);
  afterAll(async () => {
    await database.drop();
  });

  const plansOf = async (read: (tx: Queryable) => Promise<unknown>): Promise<PlanNode[]> => {
    const plans: PlanNode[][] = [];
    await database.db.transaction(async (tx) => {
      await read(explaining(tx, plans));
    });
    return plans.flat();
  };
  const indexesOf = (nodes: PlanNode[]) => nodes.map((node) => node["Index Name"]).filter(Boolean);
  const BIG_TABLES = ["conversations", "messages", "curated_answers"];
  const bigScans = (nodes: PlanNode[]) => nodes.filter((node) => node["Node Type"] === "Seq Scan" && BIG_TABLES.includes(node["Relation Name"] ?? ""));

  it("happy: the answering path's and the console's reads of curated answers use their indexes", async () => {
    const listed = await plansOf((tx) => listAgentCuratedAnswers(tx, "ws_2", "agt_1", 1000));
    expect(indexesOf(listed)).toContain("curated_answers_agent_created_idx");
    expect(bigScans(listed)).toEqual([]);
    // The answering path's candidates: those sharing a content stem (GIN, migration 0014), or, for a question without any, the few without.
    const compared = await plansOf((tx) => listCuratedQuestionCandidates(tx, { workspaceId: "ws_2", agentId: "agt_1", normalised: "word41 term41", stems: ["word41", "term41"] }, 1000));
    expect(indexesOf(compared)).toContain("curated_answers_question_stems_idx");
    expect(bigScans(compared)).toEqual([]);
    const withoutStems = await plansOf((tx) => listCuratedQuestionCandidates(tx, { workspaceId: "ws_2", agentId: "agt_1", normalised: "hi", stems: [] }, 1000));
    expect(indexesOf(withoutStems)).toContain("curated_answers_agent_without_stems_idx");
    expect(bigScans(withoutStems)).toEqual([]);
    const found = await plansOf((tx) => findWorkspaceCuratedAnswer(tx, "ws_3", "cur_40"));
    expect(indexesOf(found)).toContain("curated_answers_pkey");
    expect(bigScans(found)).toEqual([]);
  });

  it("happy: 'Fix this answer' reads the bot message and the question before it by index", async () => {
    const nodes = await plansOf((tx) => findQuestionOfBotMessage(tx, "ws_3", "msg_200"));
    expect(indexesOf(nodes)).toContain("messages_pkey");
    expect(bigScans(nodes)).toEqual([]);
  });

  it("happy: the knowledge gaps read uses the low-confidence replies' partial index", async () => {
    const nodes = await plansOf((tx) =>
      listLowConfidenceQuestions(tx, { workspaceId: "ws_3", agentId: "agt_1", from: new Date(Date.now() - 30 * 86_400_000), to: new Date(Date.now() + 86_400_000) }, 2000),
    );
    expect(indexesOf(nodes)).toContain("messages_low_confidence_bot_idx");
    expect(bigScans(nodes)).toEqual([]);
  });
});
