import type { Queryable } from "../db/database.js";

/** A conversation as an e-mail about it needs it: its state, the visitor's last page and what the visitor has seen. */
export interface ConversationOutline {
  id: string;
  workspaceId: string;
  agentId: string;
  visitorId: string;
  status: string;
  assigneeId: string | null;
  humanRequestReason: string | null;
  lastPageUrl: string | null;
  visitorSeenSeq: number;
  /** The visitor's latest message, if any. */
  lastVisitorMessage: string | null;
}

interface OutlineRow {
  id: string;
  workspace_id: string;
  agent_id: string;
  visitor_id: string;
  status: string;
  assignee_operator_id: string | null;
  human_request_reason: string | null;
  last_page_url: string | null;
  visitor_seen_seq: string | number;
  last_visitor_message: string | null;
}

export async function findConversationOutline(db: Queryable, workspaceId: string, conversationId: string): Promise<ConversationOutline | null> {
  const { rows } = await db.query<OutlineRow>(
    `SELECT c.id, c.workspace_id, c.agent_id, c.visitor_id, c.status, c.assignee_operator_id, c.human_request_reason, c.last_page_url, c.visitor_seen_seq,
       (SELECT m.content FROM messages m WHERE m.conversation_id = c.id AND m.role = 'visitor' ORDER BY m.seq DESC LIMIT 1) AS last_visitor_message
     FROM conversations c WHERE c.id = $1 AND c.workspace_id = $2`,
    [conversationId, workspaceId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    agentId: row.agent_id,
    visitorId: row.visitor_id,
    status: row.status,
    assigneeId: row.assignee_operator_id,
    humanRequestReason: row.human_request_reason,
    lastPageUrl: row.last_page_url,
    visitorSeenSeq: Number(row.visitor_seen_seq),
    lastVisitorMessage: row.last_visitor_message,
  };
}

/** Moves the visitor's seen marker up to `seq` (never down). */
export async function raiseVisitorSeenSeq(db: Queryable, conversationId: string, seq: number): Promise<void> {
  await db.query(`UPDATE conversations SET visitor_seen_seq = $2 WHERE id = $1 AND visitor_seen_seq < $2`, [conversationId, seq]);
}
