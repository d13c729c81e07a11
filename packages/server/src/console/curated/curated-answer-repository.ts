import type { Queryable } from "../../db/database.js";
import { newId } from "../../db/ids.js";
import { iso } from "../../db/timestamps.js";
import { normaliseQuestion } from "./question-similarity.js";

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

export async function insertCuratedAnswer(
  db: Queryable,
  curated: { workspaceId: string; agentId: string; question: string; answer: string; sourceUrl: string | null; createdBy: string },
): Promise<CuratedAnswer> {
  const { rows } = await db.query<CuratedAnswerRow>(
    `INSERT INTO curated_answers (id, workspace_id, agent_id, question, question_normalised, answer, source_url, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
    [newId("cur"), curated.workspaceId, curated.agentId, curated.question, normaliseQuestion(curated.question), curated.answer, curated.sourceUrl, curated.createdBy],
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

/** The questions of an agent's curated answers, newest first (at most `limit`): what the answering path compares. */
export async function listAgentCuratedQuestions(db: Queryable, workspaceId: string, agentId: string, limit: number): Promise<{ id: string; questionNormalised: string }[]> {
  const { rows } = await db.query<{ id: string; question_normalised: string }>(
    `SELECT id, question_normalised FROM curated_answers WHERE agent_id = $1 AND workspace_id = $2 ORDER BY created_at DESC, id DESC LIMIT $3`,
    [agentId, workspaceId, limit],
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
  const { rows } = await db.query<CuratedAnswerRow>(
    `UPDATE curated_answers SET
       question = COALESCE($3::text, question),
       question_normalised = COALESCE($4::text, question_normalised),
       answer = COALESCE($5::text, answer),
       source_url = CASE WHEN $6::boolean THEN $7::text ELSE source_url END,
       updated_at = now()
     WHERE id = $1 AND workspace_id = $2 RETURNING ${COLUMNS}`,
    [id, workspaceId, question, question === null ? null : normaliseQuestion(question), patch.answer ?? null, patch.sourceUrl !== undefined, patch.sourceUrl ?? null],
  );
  const row = rows[0];
  return row ? toCuratedAnswer(row) : null;
}

export async function deleteCuratedAnswer(db: Queryable, workspaceId: string, id: string): Promise<boolean> {
  const { rows } = await db.query<{ id: string }>(`DELETE FROM curated_answers WHERE id = $1 AND workspace_id = $2 RETURNING id`, [id, workspaceId]);
  return rows.length > 0;
}

/**
 * "Fix this answer" from a bot message: its conversation's agent and the visitor's message just
 * before it (null question when there is none). Null when the message is not a bot message of the workspace.
 */
export async function findQuestionOfBotMessage(
  db: Queryable,
  workspaceId: string,
  messageId: string,
): Promise<{ agentId: string; question: string | null } | null> {
  const { rows } = await db.query<{ agent_id: string; question: string | null }>(
    `SELECT c.agent_id,
       (SELECT v.content FROM messages v
         WHERE v.conversation_id = m.conversation_id AND v.role = 'visitor' AND v.seq < m.seq
         ORDER BY v.seq DESC LIMIT 1) AS question
     FROM messages m JOIN conversations c ON c.id = m.conversation_id
     WHERE m.id = $1 AND m.role = 'bot' AND c.workspace_id = $2`,
    [messageId, workspaceId],
  );
  const row = rows[0];
  return row ? { agentId: row.agent_id, question: row.question } : null;
}
