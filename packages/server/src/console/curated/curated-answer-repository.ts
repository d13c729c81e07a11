import type { Queryable } from "../../db/database.js";
import { newId } from "../../db/ids.js";
import { iso } from "../../db/timestamps.js";
import { contentStems, normaliseQuestion } from "./question-similarity.js";

export interface CuratedAnswer {
  id: string;
  agentId: string;
  question: string;
  questionNormalised: string;
  answer: string;
  sourceUrl: string | null;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

interface CuratedAnswerRow {
  id: string;
  agent_id: string;
  question: string;
  question_normalised: string;
  answer: string;
  source_url: string | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, agent_id, question, question_normalised, answer, source_url, created_by, created_at, updated_at`;

const toCuratedAnswer = (row: CuratedAnswerRow): CuratedAnswer => ({
  id: row.id,
  agentId: row.agent_id,
  question: row.question,
  questionNormalised: row.question_normalised,
  answer: row.answer,
  sourceUrl: row.source_url,
  createdBy: row.created_by,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

/** What question_stems stores: the content stems of a normalised question (see migration 0014), as a JSON array for `textArray`. */
const stemsOf = (normalised: string): string => JSON.stringify([...contentStems(normalised)]);
/** A text[] from a JSON array of strings parameter (the store's parameters are scalars). */
const textArray = (parameter: string) => `ARRAY(SELECT jsonb_array_elements_text(${parameter}::jsonb))`;

export async function insertCuratedAnswer(
  db: Queryable,
  curated: { workspaceId: string; agentId: string; question: string; answer: string; sourceUrl: string | null; createdBy: string | null },
): Promise<CuratedAnswer> {
  const normalised = normaliseQuestion(curated.question);
  const { rows } = await db.query<CuratedAnswerRow>(
    `INSERT INTO curated_answers (id, workspace_id, agent_id, question, question_normalised, question_stems, answer, source_url, created_by)
     VALUES ($1, $2, $3, $4, $5, ${textArray("$6")}, $7, $8, $9) RETURNING ${COLUMNS}`,
    [newId("cur"), curated.workspaceId, curated.agentId, curated.question, normalised, stemsOf(normalised), curated.answer, curated.sourceUrl, curated.createdBy],
  );
  const row = rows[0];
  if (!row) throw new Error("curated answer not stored");
  return toCuratedAnswer(row);
}

/** An agent's curated answers, newest first (at most `limit`). */
export async function listAgentCuratedAnswers(db: Queryable, workspaceId: string, agentId: string, limit: number): Promise<CuratedAnswer[]> {
  const { rows } = await db.query<CuratedAnswerRow>(
    `SELECT ${COLUMNS} FROM curated_answers WHERE agent_id = $1 AND workspace_id = $2 ORDER BY created_at DESC, id DESC LIMIT $3`,
    [agentId, workspaceId, limit],
  );
  return rows.map(toCuratedAnswer);
}

/**
 * The curated questions of an agent that could match a question with these content stems, newest
 * first (at most `limit`): those sharing a stem with it (curated_answers_question_stems_idx), or,
 * for a question without content words, those without any and with the same normalised text
 * (curated_answers_agent_without_stems_idx). Every other curated question scores 0.
 */
export async function listCuratedQuestionCandidates(
  db: Queryable,
  scope: { workspaceId: string; agentId: string; normalised: string; stems: readonly string[] },
  limit: number,
): Promise<{ id: string; questionNormalised: string }[]> {
  const { rows } =
    scope.stems.length > 0
      ? await db.query<{ id: string; question_normalised: string }>(
          `SELECT id, question_normalised FROM curated_answers
           WHERE question_stems && ${textArray("$3")} AND agent_id = $1 AND workspace_id = $2
           ORDER BY created_at DESC, id DESC LIMIT $4`,
          [scope.agentId, scope.workspaceId, JSON.stringify(scope.stems), limit],
        )
      : await db.query<{ id: string; question_normalised: string }>(
          `SELECT id, question_normalised FROM curated_answers
           WHERE question_stems = '{}' AND agent_id = $1 AND workspace_id = $2 AND question_normalised = $3 AND question <> ''
           ORDER BY created_at DESC, id DESC LIMIT $4`,
          [scope.agentId, scope.workspaceId, scope.normalised, limit],
        );
  return rows.map((row) => ({ id: row.id, questionNormalised: row.question_normalised }));
}

export async function findWorkspaceCuratedAnswer(db: Queryable, workspaceId: string, id: string): Promise<CuratedAnswer | null> {
  const { rows } = await db.query<CuratedAnswerRow>(`SELECT ${COLUMNS} FROM curated_answers WHERE id = $1 AND workspace_id = $2`, [id, workspaceId]);
  const row = rows[0];
  return row ? toCuratedAnswer(row) : null;
}

export async function updateCuratedAnswer(
  db: Queryable,
  workspaceId: string,
  id: string,
  patch: { question?: string | undefined; answer?: string | undefined; sourceUrl?: string | null | undefined },
): Promise<CuratedAnswer | null> {
  const question = patch.question ?? null;
  const normalised = question === null ? null : normaliseQuestion(question);
  const { rows } = await db.query<CuratedAnswerRow>(
    `UPDATE curated_answers SET
       question = COALESCE($3::text, question),
       question_normalised = COALESCE($4::text, question_normalised),
       question_stems = CASE WHEN $8::jsonb IS NULL THEN question_stems ELSE ${textArray("$8")} END,
       answer = COALESCE($5::text, answer),
       source_url = CASE WHEN $6::boolean THEN $7::text ELSE source_url END,
       updated_at = now()
     WHERE id = $1 AND workspace_id = $2 RETURNING ${COLUMNS}`,
    [id, workspaceId, question, normalised, patch.answer ?? null, patch.sourceUrl !== undefined, patch.sourceUrl ?? null, normalised === null ? null : stemsOf(normalised)],
  );
  const row = rows[0];
  return row ? toCuratedAnswer(row) : null;
}

/** Deletes the workspace's curated answer; its agent, or null when there was none. */
export async function deleteCuratedAnswer(db: Queryable, workspaceId: string, id: string): Promise<{ agentId: string } | null> {
  const { rows } = await db.query<{ agent_id: string }>(`DELETE FROM curated_answers WHERE id = $1 AND workspace_id = $2 RETURNING agent_id`, [id, workspaceId]);
  const row = rows[0];
  return row ? { agentId: row.agent_id } : null;
}

/**
 * Replaces the curated answers a file source made (a CSV's rows, issue 32) with `rows`, in the
 * caller's transaction; they go with their source (`source_id` cascades). Returns how many it holds.
 */
export async function replaceSourceCuratedAnswers(
  tx: Queryable,
  source: { workspaceId: string; agentId: string; sourceId: string; sourceUrl: string | null },
  rows: readonly { question: string; answer: string }[],
): Promise<number> {
  await tx.query(`DELETE FROM curated_answers WHERE source_id = $1`, [source.sourceId]);
  const records = rows.map((row) => {
    const question = row.question.slice(0, 1000);
    const normalised = normaliseQuestion(question);
    return { id: newId("cur"), question, normalised, stems: [...contentStems(normalised)], answer: row.answer };
  });
  const { rows: inserted } = await tx.query<{ count: number }>(
    `WITH added AS (
       INSERT INTO curated_answers (id, workspace_id, agent_id, question, question_normalised, question_stems, answer, source_url, created_by, source_id)
       SELECT r.id, $1, $2, r.question, r.normalised, ARRAY(SELECT jsonb_array_elements_text(r.stems)), r.answer, $3, NULL, $4
       FROM jsonb_to_recordset($5::jsonb) AS r (id text, question text, normalised text, stems jsonb, answer text)
       RETURNING 1
     )
     SELECT count(*)::int AS count FROM added`,
    [source.workspaceId, source.agentId, source.sourceUrl, source.sourceId, JSON.stringify(records)],
  );
  return inserted[0]?.count ?? 0;
}
