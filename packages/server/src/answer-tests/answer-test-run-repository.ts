import type { AnswerTestExpectKind, Citation } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { newId } from "../db/ids.js";
import { iso, isoOrNull } from "../db/timestamps.js";

export type RunStatus = "queued" | "running" | "done" | "failed";
export type RunTrigger = "manual" | "cli" | "knowledge" | "curated" | "answering";

export interface StoredRun {
  id: string;
  workspaceId: string;
  agentId: string;
  status: RunStatus;
  trigger: RunTrigger;
  total: number;
  passed: number;
  failed: number;
  regressed: number;
  error: string | null;
  queuedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** One test's outcome in a run, as judged. */
export interface RunResult {
  testId: string;
  passed: boolean;
  reason: string;
  regressed: boolean;
  answer: string;
  citations: Citation[];
  lowConfidence: boolean;
}

interface RunRow {
  id: string;
  workspace_id: string;
  agent_id: string;
  status: RunStatus;
  trigger: RunTrigger;
  total: number;
  passed: number;
  failed: number;
  regressed: number;
  error: string | null;
  queued_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

const COLUMNS = "id, workspace_id, agent_id, status, trigger, total, passed, failed, regressed, error, queued_at, started_at, finished_at";

const toRun = (row: RunRow): StoredRun => ({
  id: row.id,
  workspaceId: row.workspace_id,
  agentId: row.agent_id,
  status: row.status,
  trigger: row.trigger,
  total: row.total,
  passed: row.passed,
  failed: row.failed,
  regressed: row.regressed,
  error: row.error,
  queuedAt: iso(row.queued_at),
  startedAt: isoOrNull(row.started_at),
  finishedAt: isoOrNull(row.finished_at),
});

/**
 * The agent's queued run: a new one, or the one already waiting (answer_test_runs_one_queued_idx:
 * at most one per agent, so a burst of changes joins one run). Null when the agent has no test.
 */
export async function queueRun(tx: Queryable, scope: { workspaceId: string; agentId: string; trigger: RunTrigger }): Promise<{ run: StoredRun; created: boolean } | null> {
  const { rows } = await tx.query<RunRow>(
    `INSERT INTO answer_test_runs (id, workspace_id, agent_id, trigger)
     SELECT $1, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM answer_tests WHERE workspace_id = $2 AND agent_id = $3)
     ON CONFLICT (agent_id) WHERE status = 'queued' DO NOTHING
     RETURNING ${COLUMNS}`,
    [newId("anr"), scope.workspaceId, scope.agentId, scope.trigger],
  );
  if (rows[0]) return { run: toRun(rows[0]), created: true };
  const waiting = await tx.query<RunRow>(`SELECT ${COLUMNS} FROM answer_test_runs WHERE agent_id = $1 AND workspace_id = $2 AND status = 'queued'`, [
    scope.agentId,
    scope.workspaceId,
  ]);
  return waiting.rows[0] ? { run: toRun(waiting.rows[0]), created: false } : null;
}

/**
 * Starts the agent's queued run, unless another of its runs is under way (started after
 * `staleBefore`; an older one was left by a worker that died, and is marked failed). Null when
 * there is nothing to start now; `waiting` then says whether a queued run is left for later.
 */
export async function claimQueuedRun(db: Queryable, scope: { workspaceId: string; agentId: string; staleBefore: Date }): Promise<{ run: StoredRun | null; waiting: boolean }> {
  await db.query(
    `UPDATE answer_test_runs SET status = 'failed', error = 'the worker running it stopped', finished_at = now()
     WHERE agent_id = $1 AND workspace_id = $2 AND status = 'running' AND started_at <= $3`,
    [scope.agentId, scope.workspaceId, scope.staleBefore],
  );
  const { rows } = await db.query<RunRow>(
    `UPDATE answer_test_runs SET status = 'running', started_at = now()
     WHERE agent_id = $1 AND workspace_id = $2 AND status = 'queued'
       AND NOT EXISTS (SELECT 1 FROM answer_test_runs r WHERE r.agent_id = $1 AND r.status = 'running')
     RETURNING ${COLUMNS}`,
    [scope.agentId, scope.workspaceId],
  );
  if (rows[0]) return { run: toRun(rows[0]), waiting: false };
  const queued = await db.query(`SELECT 1 FROM answer_test_runs WHERE agent_id = $1 AND workspace_id = $2 AND status = 'queued'`, [scope.agentId, scope.workspaceId]);
  return { run: null, waiting: queued.rows.length > 0 };
}

/** Each test's outcome in the agent's latest finished run before now (answer_test_runs_finished_idx): passed or not. */
export async function previousOutcomes(db: Queryable, scope: { workspaceId: string; agentId: string }): Promise<Map<string, boolean>> {
  const { rows } = await db.query<{ test_id: string; passed: boolean }>(
    `SELECT res.test_id, res.passed FROM answer_test_results res
     WHERE res.run_id = (SELECT id FROM answer_test_runs WHERE agent_id = $1 AND workspace_id = $2 AND status = 'done' ORDER BY finished_at DESC, id DESC LIMIT 1)`,
    [scope.agentId, scope.workspaceId],
  );
  return new Map(rows.map((row) => [row.test_id, row.passed]));
}

/** Stores a run's results (of tests that still exist) and its counts, and marks it done. */
export async function finishRun(tx: Queryable, run: { id: string; workspaceId: string }, results: readonly RunResult[]): Promise<StoredRun> {
  const stored = await tx.query<{ passed: boolean; regressed: boolean }>(
    `INSERT INTO answer_test_results (run_id, test_id, workspace_id, passed, reason, regressed, answer, citations, low_confidence)
     SELECT $1, r.test_id, $2, r.passed, r.reason, r.regressed, r.answer, r.citations, r.low_confidence
     FROM jsonb_to_recordset($3::jsonb) AS r (test_id text, passed boolean, reason text, regressed boolean, answer text, citations jsonb, low_confidence boolean)
     JOIN answer_tests t ON t.id = r.test_id AND t.workspace_id = $2
     RETURNING passed, regressed`,
    [
      run.id,
      run.workspaceId,
      JSON.stringify(
        results.map((result) => ({
          test_id: result.testId,
          passed: result.passed,
          reason: result.reason,
          regressed: result.regressed,
          answer: result.answer,
          citations: result.citations,
          low_confidence: result.lowConfidence,
        })),
      ),
    ],
  );
  const passed = stored.rows.filter((row) => row.passed).length;
  const { rows } = await tx.query<RunRow>(
    `UPDATE answer_test_runs SET status = 'done', finished_at = now(), total = $3, passed = $4, failed = $5, regressed = $6
     WHERE id = $1 AND workspace_id = $2 RETURNING ${COLUMNS}`,
    [run.id, run.workspaceId, stored.rows.length, passed, stored.rows.length - passed, stored.rows.filter((row) => row.regressed).length],
  );
  return toRun(rows[0]!);
}

/** A run that could not finish, with why. */
export async function failRun(db: Queryable, run: { id: string; workspaceId: string }, error: string): Promise<void> {
  await db.query(`UPDATE answer_test_runs SET status = 'failed', error = $3, finished_at = now() WHERE id = $1 AND workspace_id = $2`, [run.id, run.workspaceId, error.slice(0, 1000)]);
}

/** The agent's runs, newest first (answer_test_runs_agent_idx). */
export async function listAgentRuns(db: Queryable, scope: { workspaceId: string; agentId: string }, limit: number): Promise<StoredRun[]> {
  const { rows } = await db.query<RunRow>(
    `SELECT ${COLUMNS} FROM answer_test_runs WHERE workspace_id = $1 AND agent_id = $2 ORDER BY queued_at DESC, id DESC LIMIT $3`,
    [scope.workspaceId, scope.agentId, limit],
  );
  return rows.map(toRun);
}

export async function findRun(db: Queryable, workspaceId: string, runId: string): Promise<StoredRun | null> {
  const { rows } = await db.query<RunRow>(`SELECT ${COLUMNS} FROM answer_test_runs WHERE id = $1 AND workspace_id = $2`, [runId, workspaceId]);
  return rows[0] ? toRun(rows[0]) : null;
}

export interface RunResultOfTest extends RunResult {
  question: string;
  expectKind: AnswerTestExpectKind;
  expectValue: string | null;
}

/** A run's results with their tests, failures first, then in the tests' order (the results' primary key). */
export async function listRunResults(db: Queryable, run: { id: string; workspaceId: string }): Promise<RunResultOfTest[]> {
  const { rows } = await db.query<{
    test_id: string;
    question: string;
    expect_kind: AnswerTestExpectKind;
    expect_value: string | null;
    passed: boolean;
    reason: string;
    regressed: boolean;
    answer: string;
    citations: Citation[];
    low_confidence: boolean;
  }>(
    `SELECT res.test_id, t.question, t.expect_kind, t.expect_value, res.passed, res.reason, res.regressed, res.answer, res.citations, res.low_confidence
     FROM answer_test_results res JOIN answer_tests t ON t.id = res.test_id
     WHERE res.run_id = $1 AND res.workspace_id = $2
     ORDER BY res.passed, t.created_at, t.id`,
    [run.id, run.workspaceId],
  );
  return rows.map((row) => ({
    testId: row.test_id,
    question: row.question,
    expectKind: row.expect_kind,
    expectValue: row.expect_value,
    passed: row.passed,
    reason: row.reason,
    regressed: row.regressed,
    answer: row.answer,
    citations: row.citations,
    lowConfidence: row.low_confidence,
  }));
}

/** Each of the agent's tests' latest result in a finished run (answer_test_results_test_idx per test). */
export async function latestResultsOfAgent(
  db: Queryable,
  scope: { workspaceId: string; agentId: string },
): Promise<Map<string, { runId: string; passed: boolean; reason: string; at: string }>> {
  const { rows } = await db.query<{ test_id: string; run_id: string; passed: boolean; reason: string; finished_at: Date }>(
    `SELECT t.id AS test_id, last.run_id, last.passed, last.reason, last.finished_at
     FROM answer_tests t
     JOIN LATERAL (
       SELECT res.run_id, res.passed, res.reason, run.finished_at
       FROM answer_test_results res JOIN answer_test_runs run ON run.id = res.run_id AND run.status = 'done'
       WHERE res.test_id = t.id
       ORDER BY run.finished_at DESC, run.id DESC LIMIT 1
     ) last ON true
     WHERE t.workspace_id = $1 AND t.agent_id = $2`,
    [scope.workspaceId, scope.agentId],
  );
  return new Map(rows.map((row) => [row.test_id, { runId: row.run_id, passed: row.passed, reason: row.reason, at: iso(row.finished_at) }]));
}
