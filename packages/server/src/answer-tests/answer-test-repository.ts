import type { AnswerTestExpectKind } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { countRemoved } from "../db/count-removed.js";
import { newId } from "../db/ids.js";
import { iso } from "../db/timestamps.js";

export type AnswerTestOrigin = "console" | "curated" | "message" | "csv" | "cli";

/** What a right answer must do: `value` is the page or phrase, null for `unsure`. */
export interface Expectation {
  kind: AnswerTestExpectKind;
  value: string | null;
}

export interface StoredAnswerTest {
  id: string;
  workspaceId: string;
  agentId: string;
  question: string;
  expect: Expectation;
  origin: AnswerTestOrigin;
  createdAt: string;
}

export interface NewAnswerTest {
  question: string;
  expect: Expectation;
  origin: AnswerTestOrigin;
  /** The visitor whose message the question is (a test made from a bot message): their erasure deletes it. */
  originVisitorId?: string | null;
}

interface TestRow {
  id: string;
  workspace_id: string;
  agent_id: string;
  question: string;
  expect_kind: AnswerTestExpectKind;
  expect_value: string | null;
  origin: AnswerTestOrigin;
  created_at: Date;
}

const COLUMNS = "id, workspace_id, agent_id, question, expect_kind, expect_value, origin, created_at";

const toTest = (row: TestRow): StoredAnswerTest => ({
  id: row.id,
  workspaceId: row.workspace_id,
  agentId: row.agent_id,
  question: row.question,
  expect: { kind: row.expect_kind, value: row.expect_value },
  origin: row.origin,
  createdAt: iso(row.created_at),
});

/**
 * Inserts the agent's new tests in one statement, unless the agent would then hold more than
 * `max`: null then, and nothing is written. The count and the insert are one statement
 * (answer_tests_agent_idx), so two imports at once cannot both pass the limit unseen by either.
 */
export async function insertAnswerTests(
  tx: Queryable,
  scope: { workspaceId: string; agentId: string; max: number },
  tests: readonly NewAnswerTest[],
): Promise<StoredAnswerTest[] | null> {
  if (tests.length === 0) return [];
  const rows = tests.map((test, n) => ({
    n,
    id: newId("ant"),
    question: test.question,
    expect_kind: test.expect.kind,
    expect_value: test.expect.value,
    origin: test.origin,
    origin_visitor_id: test.originVisitorId ?? null,
  }));
  const { rows: inserted } = await tx.query<TestRow>(
    `INSERT INTO answer_tests (id, workspace_id, agent_id, question, expect_kind, expect_value, origin, origin_visitor_id, created_at)
     SELECT t.id, $1, $2, t.question, t.expect_kind, t.expect_value, t.origin, t.origin_visitor_id, now() + t.n * interval '1 microsecond'
     FROM jsonb_to_recordset($3::jsonb) AS t (n integer, id text, question text, expect_kind text, expect_value text, origin text, origin_visitor_id text)
     WHERE (SELECT count(*) FROM answer_tests WHERE workspace_id = $1 AND agent_id = $2) + $4 <= $5
     RETURNING ${COLUMNS}`,
    [scope.workspaceId, scope.agentId, JSON.stringify(rows), rows.length, scope.max],
  );
  if (inserted.length === 0) return null;
  // In the given order, which created_at keeps for the lists (the statement's time plus each row's position in microseconds).
  const byId = new Map(inserted.map((row) => [row.id, toTest(row)]));
  return rows.flatMap((row) => byId.get(row.id) ?? []);
}

/** The agent's tests, oldest first (answer_tests_agent_idx). */
export async function listAgentAnswerTests(db: Queryable, scope: { workspaceId: string; agentId: string }): Promise<StoredAnswerTest[]> {
  const { rows } = await db.query<TestRow>(
    `SELECT ${COLUMNS} FROM answer_tests WHERE workspace_id = $1 AND agent_id = $2 ORDER BY created_at, id`,
    [scope.workspaceId, scope.agentId],
  );
  return rows.map(toTest);
}

/** Whether the agent has any test (a change queues a run only then). */
export async function agentHasAnswerTests(db: Queryable, scope: { workspaceId: string; agentId: string }): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM answer_tests WHERE workspace_id = $1 AND agent_id = $2 LIMIT 1`, [scope.workspaceId, scope.agentId]);
  return rows.length > 0;
}

/** Deletes a test of the workspace (its results go with it); its agent, or null when there is no such test. */
export async function deleteAnswerTest(db: Queryable, workspaceId: string, id: string): Promise<{ agentId: string } | null> {
  const { rows } = await db.query<{ agent_id: string }>(`DELETE FROM answer_tests WHERE id = $1 AND workspace_id = $2 RETURNING agent_id`, [id, workspaceId]);
  return rows[0] ? { agentId: rows[0].agent_id } : null;
}

/** Erasure: the tests whose question is an erased visitor's message (answer_tests_visitor_idx); how many. */
export async function deleteVisitorAnswerTests(tx: Queryable, workspaceId: string, visitorId: string): Promise<number> {
  return countRemoved(tx, `DELETE FROM answer_tests WHERE workspace_id = $1 AND origin_visitor_id = $2`, [workspaceId, visitorId]);
}
