import type { ConversationStatus } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { isoOrNull } from "../db/timestamps.js";
import { lockedVisitorOf } from "./visitor-lock.js";

/** What the state machine reads and writes of a conversation. */
export interface ConversationState {
  id: string;
  workspaceId: string;
  agentId: string;
  visitorId: string;
  status: ConversationStatus;
  assignee: { id: string; name: string } | null;
  humanRequestedAt: string | null;
  humanRequestReason: string | null;
  /** The seq of the latest transition (`conversation.updated`); null before the first. */
  updatedSeq: number | null;
}

interface StateRow {
  id: string;
  workspace_id: string;
  agent_id: string;
  visitor_id: string;
  status: ConversationStatus;
  assignee_operator_id: string | null;
  assignee_name: string | null;
  human_requested_at: Date | null;
  human_request_reason: string | null;
  updated_seq: number | null;
}

const toState = (row: StateRow): ConversationState => ({
  id: row.id,
  workspaceId: row.workspace_id,
  agentId: row.agent_id,
  visitorId: row.visitor_id,
  status: row.status,
  assignee: row.assignee_operator_id && row.assignee_name !== null ? { id: row.assignee_operator_id, name: row.assignee_name } : null,
  humanRequestedAt: isoOrNull(row.human_requested_at),
  humanRequestReason: row.human_request_reason,
  updatedSeq: row.updated_seq,
});

const SELECT_STATE = `SELECT c.id, c.workspace_id, c.agent_id, c.visitor_id, c.status, c.assignee_operator_id, o.name AS assignee_name,
    c.human_requested_at, c.human_request_reason, c.updated_seq
  FROM conversations c LEFT JOIN operators o ON o.id = c.assignee_operator_id`;

/** The conversation's state, when it belongs to the workspace. */
export async function findConversationState(db: Queryable, workspaceId: string, conversationId: string): Promise<ConversationState | null> {
  const { rows } = await db.query<StateRow>(`${SELECT_STATE} WHERE c.id = $1 AND c.workspace_id = $2`, [conversationId, workspaceId]);
  return rows[0] ? toState(rows[0]) : null;
}

/**
 * Locks the conversation's row for the rest of the transaction and reads its state: the "compare"
 * of every transition's compare-and-set (a concurrent transition waits here, then reads the state
 * the first one committed). Null when it does not exist in the workspace (or its visitor was erased).
 *
 * Its visitor's row is locked first, FOR KEY SHARE, in the same statement (conversations/visitor-lock.ts):
 * a transition updates the row it locked a second time (its system message takes the next seq),
 * and Postgres checks the foreign keys of a row updated again in its transaction, the visitor's
 * among them; locked only then, the visitor would come after the conversation, against erasure's order.
 */
export async function lockConversationState(tx: Queryable, workspaceId: string, conversationId: string): Promise<ConversationState | null> {
  // Lock, then read in a statement of its own: a locking read that waited re-reads only the locked
  // row, not the joined assignee (Postgres' EvalPlanQual), so the winner's name would be missed.
  // The conversation's row is locked only once the join has the visitor's, locked in the CTE.
  const locked = await tx.query(
    `WITH session_visitor AS (${lockedVisitorOf("$1")})
     SELECT 1 FROM conversations c JOIN session_visitor ON session_visitor.id = c.visitor_id
     WHERE c.id = $1 AND c.workspace_id = $2 FOR UPDATE OF c`,
    [conversationId, workspaceId],
  );
  if (locked.rows.length === 0) return null;
  return findConversationState(tx, workspaceId, conversationId);
}

/** The new state a transition stores; the human request is kept, stamped now, or cleared. */
export interface NextState {
  status: ConversationStatus;
  assigneeId: string | null;
  humanRequest: { kind: "keep" } | { kind: "stamp"; reason: string | null } | { kind: "clear" };
  closedBy?: "operator" | "visitor";
}

/**
 * The "set" of a transition, on a row locked by lockConversationState: writes the new state and
 * takes the conversation's next event seq for its `conversation.updated`. Returns the new seq and
 * the human request's time.
 */
export async function writeConversationState(
  tx: Queryable,
  conversationId: string,
  next: NextState,
): Promise<{ seq: number; humanRequestedAt: string | null; humanRequestReason: string | null }> {
  const { rows } = await tx.query<{ updated_seq: number; human_requested_at: Date | null; human_request_reason: string | null }>(
    `UPDATE conversations SET
       status = $2::text,
       assigned_at = CASE WHEN $3::text IS NULL THEN NULL WHEN assignee_operator_id IS DISTINCT FROM $3::text THEN now() ELSE assigned_at END,
       assignee_operator_id = $3::text,
       human_requested_at = CASE $4::text WHEN 'stamp' THEN now() WHEN 'clear' THEN NULL ELSE human_requested_at END,
       human_request_reason = CASE $4::text WHEN 'stamp' THEN $5::text WHEN 'clear' THEN NULL ELSE human_request_reason END,
       closed_at = CASE WHEN $2::text = 'closed' THEN now() ELSE NULL END,
       closed_by = CASE WHEN $2::text = 'closed' THEN $6::text ELSE NULL END,
       last_activity_at = now(),
       event_seq = event_seq + 1,
       updated_seq = event_seq + 1
     WHERE id = $1::text
     RETURNING updated_seq, human_requested_at, human_request_reason`,
    [
      conversationId,
      next.status,
      next.assigneeId,
      next.humanRequest.kind,
      next.humanRequest.kind === "stamp" ? next.humanRequest.reason : null,
      next.closedBy ?? null,
    ],
  );
  const row = rows[0];
  if (!row) throw new Error(`conversation ${conversationId} does not exist`);
  return { seq: row.updated_seq, humanRequestedAt: isoOrNull(row.human_requested_at), humanRequestReason: row.human_request_reason };
}

/** A newer non-empty reason replaces the stored one of a pending human request (no transition, no seq). */
export async function updateHumanRequestReason(tx: Queryable, conversationId: string, reason: string): Promise<void> {
  await tx.query(`UPDATE conversations SET human_request_reason = $2, last_activity_at = now() WHERE id = $1`, [conversationId, reason]);
}
