import type { AnswerRating, AnswerTrace, Citation } from "@frontdesk/contracts";
import type { Queryable, SqlValue } from "../db/database.js";
import { microsecondsOf, timestampFromMicroseconds } from "../paging/page-cursor.js";

/** Which of a workspace's bot answers the review queue lists. */
export interface AnswerReviewFilter {
  workspaceId: string;
  agentId?: string | undefined;
  rating?: AnswerRating | undefined;
  lowConfidence?: boolean | undefined;
  noCitation?: boolean | undefined;
  /** true: only answers served from a curated answer; false: only the others. */
  curated?: boolean | undefined;
  /** Created at or after. */
  from?: Date | undefined;
  /** Created before. */
  to?: Date | undefined;
  /** After this row of the previous page (newest first). */
  after?: { createdMicroseconds: string; id: string } | undefined;
  limit: number;
}

export interface AnswerReviewRow {
  id: string;
  conversationId: string;
  agentId: string;
  /** The visitor's message before the answer ("" when there is none). */
  question: string;
  answer: string;
  citations: Citation[];
  lowConfidence: boolean;
  curatedAnswerId: string | null;
  trace: AnswerTrace | null;
  rating: { rating: AnswerRating; comment: string | null; ratedAt: Date } | null;
  createdAt: Date;
  createdMicroseconds: string;
}

/**
 * A page of the workspace's bot answers, newest first, with the question each answered (the
 * visitor's message before it, through messages_conversation_seq_idx). The walk is
 * messages_bot_created_idx (or messages_rated_down_idx when only 👎 are asked), each answer's
 * conversation read by its key for the workspace and agent; the rating filter is written as a
 * literal so that the planner can match the partial index.
 */
export async function listAnswerReviews(db: Queryable, filter: AnswerReviewFilter): Promise<AnswerReviewRow[]> {
  const params: SqlValue[] = [filter.workspaceId];
  const where = ["m.role = 'bot'", "c.workspace_id = $1"];
  const parameter = (value: SqlValue) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (filter.agentId !== undefined) where.push(`c.agent_id = ${parameter(filter.agentId)}`);
  if (filter.rating === "down") where.push("m.rating = 'down'");
  if (filter.rating === "up") where.push("m.rating = 'up'");
  if (filter.lowConfidence !== undefined) where.push(filter.lowConfidence ? "m.low_confidence" : "NOT m.low_confidence");
  if (filter.noCitation) where.push("m.citations = '[]'::jsonb");
  if (filter.curated !== undefined) where.push(`m.curated_answer_id IS ${filter.curated ? "NOT " : ""}NULL`);
  if (filter.from) where.push(`m.created_at >= ${parameter(filter.from)}`);
  if (filter.to) where.push(`m.created_at < ${parameter(filter.to)}`);
  if (filter.after) {
    const at = timestampFromMicroseconds(parameter(filter.after.createdMicroseconds));
    where.push(`(m.created_at, m.id) < (${at}, ${parameter(filter.after.id)}::text)`);
  }
  const { rows } = await db.query<{
    id: string;
    conversation_id: string;
    agent_id: string;
    question: string | null;
    content: string;
    citations: Citation[];
    low_confidence: boolean;
    curated_answer_id: string | null;
    answer_trace: AnswerTrace | null;
    rating: AnswerRating | null;
    rating_comment: string | null;
    rated_at: Date | null;
    created_at: Date;
    created_us: string;
  }>(
    `SELECT m.id, m.conversation_id, c.agent_id, m.content, m.citations, m.low_confidence, m.curated_answer_id, m.answer_trace,
       m.rating, m.rating_comment, m.rated_at, m.created_at, ${microsecondsOf("m.created_at")} AS created_us,
       (SELECT q.content FROM messages q WHERE q.conversation_id = m.conversation_id AND q.seq < m.seq AND q.role = 'visitor'
        ORDER BY q.seq DESC LIMIT 1) AS question
     FROM messages m JOIN conversations c ON c.id = m.conversation_id
     WHERE ${where.join(" AND ")}
     ORDER BY m.created_at DESC, m.id DESC
     LIMIT ${parameter(filter.limit)}`,
    params,
  );
  return rows.map((row) => ({
    id: row.id,
    conversationId: row.conversation_id,
    agentId: row.agent_id,
    question: row.question ?? "",
    answer: row.content,
    citations: row.citations,
    lowConfidence: row.low_confidence,
    curatedAnswerId: row.curated_answer_id,
    trace: row.answer_trace,
    rating: row.rating && row.rated_at ? { rating: row.rating, comment: row.rating_comment, ratedAt: row.rated_at } : null,
    createdAt: row.created_at,
    createdMicroseconds: row.created_us,
  }));
}
