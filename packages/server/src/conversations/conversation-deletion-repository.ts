import { countRemoved } from "../db/count-removed.js";
import type { Queryable, SqlValue } from "../db/database.js";
import { textArray } from "../db/text-array.js";

/**
 * The SQL of erasure and retention on the tables conversations/ owns: visitors, conversations, their
 * messages and operators' read marks. privacy/ calls these in its transaction, in the lock order of
 * conversations/visitor-lock.ts (the visitor, then their conversations, then the rows under them). Each
 * statement names the workspace and, where the table has one, the agent, and reaches its rows
 * through an index: conversations by visitor (conversations_visitor_recent_idx) or by workspace and
 * activity (conversations_workspace_activity_idx), messages and reads by conversation.
 */

/** A visitor of one of the workspace's agents. */
export interface VisitorOfWorkspace {
  id: string;
  agentId: string;
  workspaceId: string;
}

/** A conversation deleted with whether it held a rating and a coupon (erasure counts them). */
export interface RemovedConversation {
  id: string;
  rated: boolean;
  couponed: boolean;
}

/** A stale conversation chosen by the retention purge. */
export interface StaleConversation extends RemovedConversation {
  agent_id: string;
  visitor_id: string;
}

/**
 * The visitor `visitorId` when one of the workspace's agents has it (and it is `agentId`'s when
 * given), its row locked until the transaction ends: a concurrent erasure waits, then finds nothing.
 */
export async function lockVisitorOfWorkspace(tx: Queryable, workspaceId: string, visitorId: string, agentId?: string): Promise<VisitorOfWorkspace | null> {
  const { rows } = await tx.query<{ id: string; agent_id: string; workspace_id: string }>(
    `SELECT v.id, v.agent_id, a.workspace_id FROM visitors v JOIN agents a ON a.id = v.agent_id
     WHERE v.id = $1 AND a.workspace_id = $2 AND ($3::text IS NULL OR v.agent_id = $3::text)
     FOR UPDATE OF v`,
    [visitorId, workspaceId, agentId ?? null],
  );
  const row = rows[0];
  return row ? { id: row.id, agentId: row.agent_id, workspaceId: row.workspace_id } : null;
}

/** The workspace and agent of a visitor the session token names (the token's agent must be the visitor's). */
export async function findVisitorWorkspace(db: Queryable, visitorId: string, agentId: string): Promise<string | null> {
  const { rows } = await db.query<{ workspace_id: string }>(
    `SELECT a.workspace_id FROM visitors v JOIN agents a ON a.id = v.agent_id WHERE v.id = $1 AND v.agent_id = $2`,
    [visitorId, agentId],
  );
  return rows[0]?.workspace_id ?? null;
}

/** The visitor's conversations with the agent, as a subquery of $1 workspace, $2 agent, $3 visitor. */
const VISITOR_CONVERSATIONS = `SELECT c.id FROM conversations c WHERE c.workspace_id = $1 AND c.agent_id = $2 AND c.visitor_id = $3`;
const scopeOf = (visitor: VisitorOfWorkspace) => [visitor.workspaceId, visitor.agentId, visitor.id];

/** Locks the visitor's conversations with the agent (in id order) until the transaction ends; their ids. */
export async function lockVisitorConversations(tx: Queryable, visitor: VisitorOfWorkspace): Promise<string[]> {
  const { rows } = await tx.query<{ id: string }>(`${VISITOR_CONVERSATIONS} ORDER BY c.id FOR UPDATE`, scopeOf(visitor));
  return rows.map((row) => row.id);
}

/** What the visitor typed in their conversations with the agent. */
export async function listVisitorQuestions(tx: Queryable, visitor: VisitorOfWorkspace): Promise<string[]> {
  const { rows } = await tx.query<{ content: string }>(
    `SELECT m.content FROM messages m WHERE m.role = 'visitor' AND m.conversation_id IN (${VISITOR_CONVERSATIONS})`,
    scopeOf(visitor),
  );
  return rows.map((row) => row.content);
}

/** Messages deleted, and how many of them held a visitor's rating of a bot answer (erasure counts both). */
export interface RemovedMessages {
  messages: number;
  answerRatings: number;
}

/** Runs a DELETE of messages aliased `m` (`sql`, without RETURNING) and counts what it removed. */
async function removeMessages(tx: Queryable, sql: string, params: readonly SqlValue[]): Promise<RemovedMessages> {
  const { rows } = await tx.query<{ messages: number; answer_ratings: number }>(
    `WITH removed AS (${sql} RETURNING m.rating IS NOT NULL AS rated)
     SELECT count(*)::int AS messages, (count(*) FILTER (WHERE rated))::int AS answer_ratings FROM removed`,
    params,
  );
  return { messages: rows[0]?.messages ?? 0, answerRatings: rows[0]?.answer_ratings ?? 0 };
}

/** Deletes the messages of the visitor's conversations with the agent (their answers' ratings with them); how many. */
export async function deleteVisitorMessages(tx: Queryable, visitor: VisitorOfWorkspace): Promise<RemovedMessages> {
  return removeMessages(tx, `DELETE FROM messages m WHERE m.conversation_id IN (${VISITOR_CONVERSATIONS})`, scopeOf(visitor));
}

/** Deletes the operators' read marks of the visitor's conversations with the agent. */
export async function deleteVisitorReadMarks(tx: Queryable, visitor: VisitorOfWorkspace): Promise<void> {
  await tx.query(`DELETE FROM conversation_reads r WHERE r.conversation_id IN (${VISITOR_CONVERSATIONS})`, scopeOf(visitor));
}

/** Deletes the visitor's conversations with the agent (what is under them first). */
export async function deleteVisitorConversations(tx: Queryable, visitor: VisitorOfWorkspace): Promise<RemovedConversation[]> {
  const { rows } = await tx.query<RemovedConversation>(
    `DELETE FROM conversations c WHERE c.workspace_id = $1 AND c.agent_id = $2 AND c.visitor_id = $3
     RETURNING c.id, c.satisfaction_rating IS NOT NULL AS rated, c.coupon_code IS NOT NULL AS couponed`,
    scopeOf(visitor),
  );
  return rows;
}

/** Deletes the visitor's row (their conversations and what refers to it first); how many (0 or 1). */
export async function deleteVisitor(tx: Queryable, visitor: VisitorOfWorkspace): Promise<number> {
  return countRemoved(tx, `DELETE FROM visitors v USING agents a WHERE v.id = $3 AND v.agent_id = $2 AND a.id = v.agent_id AND a.workspace_id = $1`, scopeOf(visitor));
}

/**
 * Up to `limit` conversations of the workspace with no activity since `before`, oldest first, locked
 * until the transaction ends; rows another transaction holds are skipped.
 */
export async function lockStaleConversations(tx: Queryable, options: { workspaceId: string; before: Date; limit: number }): Promise<StaleConversation[]> {
  const { rows } = await tx.query<StaleConversation>(
    `SELECT c.id, c.agent_id, c.visitor_id, c.satisfaction_rating IS NOT NULL AS rated, c.coupon_code IS NOT NULL AS couponed
     FROM conversations c WHERE c.workspace_id = $1 AND c.last_activity_at < $2
     ORDER BY c.last_activity_at, c.id LIMIT $3 FOR UPDATE SKIP LOCKED`,
    [options.workspaceId, options.before, options.limit],
  );
  return rows;
}

// A text[] parameter: the planner sees how many ids there are and reads each through its index.
const BATCH = `$2::text[]`;

/** Deletes the messages of these conversations of the workspace; how many. */
export async function deleteMessagesOfConversations(tx: Queryable, workspaceId: string, conversationIds: readonly string[]): Promise<RemovedMessages> {
  return removeMessages(
    tx,
    `DELETE FROM messages m USING conversations c WHERE m.conversation_id = c.id AND c.workspace_id = $1 AND c.id = ANY(${BATCH})`,
    [workspaceId, textArray(conversationIds)],
  );
}

/** Deletes the operators' read marks of these conversations of the workspace. */
export async function deleteReadMarksOfConversations(tx: Queryable, workspaceId: string, conversationIds: readonly string[]): Promise<void> {
  await tx.query(`DELETE FROM conversation_reads r USING conversations c WHERE r.conversation_id = c.id AND c.workspace_id = $1 AND c.id = ANY(${BATCH})`, [
    workspaceId,
    textArray(conversationIds),
  ]);
}

/** Deletes these conversations of the workspace (what is under them first). */
export async function deleteConversations(tx: Queryable, workspaceId: string, conversationIds: readonly string[]): Promise<void> {
  await tx.query(`DELETE FROM conversations c WHERE c.workspace_id = $1 AND c.id = ANY(${BATCH})`, [workspaceId, textArray(conversationIds)]);
}

/**
 * The visitors among these who have no conversation left, locked. SKIP LOCKED: the purge holds
 * conversations here, and waiting on a visitor that a write of theirs holds (conversations/visitor-lock.ts)
 * would invert erasure's order; a visitor busy writing keeps their row (their next init starts a new
 * conversation with it).
 */
export async function lockVisitorsWithoutConversations(tx: Queryable, workspaceId: string, visitorIds: readonly string[]): Promise<{ id: string; agent_id: string }[]> {
  const { rows } = await tx.query<{ id: string; agent_id: string }>(
    `SELECT v.id, v.agent_id FROM visitors v JOIN agents a ON a.id = v.agent_id
     WHERE a.workspace_id = $1 AND v.id = ANY(${BATCH})
       AND NOT EXISTS (SELECT 1 FROM conversations c WHERE c.visitor_id = v.id)
     FOR UPDATE OF v SKIP LOCKED`,
    [workspaceId, textArray(visitorIds)],
  );
  return rows;
}

/** Deletes these visitors of the workspace; how many. */
export async function deleteVisitors(tx: Queryable, workspaceId: string, visitorIds: readonly string[]): Promise<number> {
  return countRemoved(tx, `DELETE FROM visitors v USING agents a WHERE a.id = v.agent_id AND a.workspace_id = $1 AND v.id = ANY(${BATCH})`, [
    workspaceId,
    textArray(visitorIds),
  ]);
}
