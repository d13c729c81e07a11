import type { Queryable } from "../db/database.js";

/** A conversation's ids and its latest event seq. */
export interface ConversationHead {
  id: string;
  workspaceId: string;
  agentId: string;
  visitorId: string;
  /** The seq of its latest message or transition. */
  seq: number;
}

/**
 * The workspace's conversation with its latest seq, its row held FOR KEY SHARE until the caller's
 * transaction ends: what another domain writes about it (an operator's note) cannot outlive an
 * erasure or a purge that deletes it meanwhile (their FOR UPDATE waits, or this waits for them and
 * reads nothing). Null when the workspace has no such conversation.
 */
export async function lockConversationHead(tx: Queryable, workspaceId: string, conversationId: string): Promise<ConversationHead | null> {
  const { rows } = await tx.query<{ id: string; workspace_id: string; agent_id: string; visitor_id: string; event_seq: number | string }>(
    `SELECT id, workspace_id, agent_id, visitor_id, event_seq FROM conversations WHERE id = $1 AND workspace_id = $2 FOR KEY SHARE`,
    [conversationId, workspaceId],
  );
  const row = rows[0];
  return row ? { id: row.id, workspaceId: row.workspace_id, agentId: row.agent_id, visitorId: row.visitor_id, seq: Number(row.event_seq) } : null;
}
