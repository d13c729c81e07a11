import type { Queryable } from "../db/database.js";
import { iso } from "../db/timestamps.js";
import { textArray } from "../db/text-array.js";

/** The conversation a label was put on (for its event): null when it is not the workspace's. */
export interface LabelledConversation {
  agentId: string;
  visitorId: string;
  /** When the label was put on now; null when the conversation carried it already. */
  addedAt: string | null;
}

/**
 * Puts a label on the workspace's conversation (conversation_labels' primary key: once). The label
 * must be the workspace's (the caller checked it; a label deleted since fails its foreign key,
 * 23503). Null when the conversation is not the workspace's. One statement that locks the
 * conversation's row once (its foreign-key check) and waits on nothing after it (visitor-lock.ts).
 */
export async function addConversationLabel(
  db: Queryable,
  scope: { workspaceId: string; conversationId: string; labelId: string },
): Promise<LabelledConversation | null> {
  const { rows } = await db.query<{ agent_id: string; visitor_id: string; added_at: Date | null }>(
    `WITH target AS (SELECT c.id, c.agent_id, c.visitor_id FROM conversations c WHERE c.id = $1 AND c.workspace_id = $2),
     added AS (
       INSERT INTO conversation_labels (conversation_id, label_id, workspace_id)
       SELECT target.id, $3, $2 FROM target
       ON CONFLICT (conversation_id, label_id) DO NOTHING
       RETURNING created_at
     )
     SELECT target.agent_id, target.visitor_id, (SELECT created_at FROM added) AS added_at FROM target`,
    [scope.conversationId, scope.workspaceId, scope.labelId],
  );
  const row = rows[0];
  return row ? { agentId: row.agent_id, visitorId: row.visitor_id, addedAt: row.added_at ? iso(row.added_at) : null } : null;
}

/**
 * Takes a label off the workspace's conversation: its agent and visitor (for its event) and whether
 * it carried the label; null when the conversation is not the workspace's.
 */
export async function removeConversationLabel(
  db: Queryable,
  scope: { workspaceId: string; conversationId: string; labelId: string },
): Promise<{ agentId: string; visitorId: string; removed: boolean } | null> {
  const { rows } = await db.query<{ agent_id: string; visitor_id: string; removed: boolean }>(
    `WITH target AS (SELECT c.id, c.agent_id, c.visitor_id FROM conversations c WHERE c.id = $1 AND c.workspace_id = $2),
     removed AS (
       DELETE FROM conversation_labels cl USING target WHERE cl.conversation_id = target.id AND cl.label_id = $3 AND cl.workspace_id = $2
       RETURNING cl.label_id
     )
     SELECT target.agent_id, target.visitor_id, EXISTS (SELECT 1 FROM removed) AS removed FROM target`,
    [scope.conversationId, scope.workspaceId, scope.labelId],
  );
  const row = rows[0];
  return row ? { agentId: row.agent_id, visitorId: row.visitor_id, removed: row.removed } : null;
}

/** The label ids of each of the workspace's conversations, in the order they were put on (the primary key). */
export async function listLabelIdsOfConversations(db: Queryable, workspaceId: string, conversationIds: readonly string[]): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  if (conversationIds.length === 0) return found;
  const { rows } = await db.query<{ conversation_id: string; label_id: string }>(
    `SELECT conversation_id, label_id FROM conversation_labels
     WHERE conversation_id = ANY($1::text[]) AND workspace_id = $2 ORDER BY created_at, label_id`,
    [textArray(conversationIds), workspaceId],
  );
  for (const row of rows) found.set(row.conversation_id, [...(found.get(row.conversation_id) ?? []), row.label_id]);
  return found;
}

/** How many of the workspace's conversations carry each label (conversation_labels_workspace_idx); a label on none is absent. */
export async function countLabelledConversations(db: Queryable, workspaceId: string): Promise<Map<string, number>> {
  const { rows } = await db.query<{ label_id: string; n: number }>(
    `SELECT label_id, count(*)::int AS n FROM conversation_labels WHERE workspace_id = $1 GROUP BY label_id`,
    [workspaceId],
  );
  return new Map(rows.map((row) => [row.label_id, row.n]));
}

/**
 * The inbox's label filter, for a condition on `c` (conversations) of the list's statement: the
 * conversations carrying the label (conversation_labels_label_idx), of the workspace `$1`.
 */
export const labelledConversationIds = (label: string): string =>
  `SELECT cl.conversation_id FROM conversation_labels cl WHERE cl.label_id = ${label} AND cl.workspace_id = $1`;
