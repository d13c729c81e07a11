import type { Queryable } from "../db/database.js";

/** Whether `conversationId` is a conversation of `workspaceId`, scoped in the query (the primary key's index). */
export async function isConversationOfWorkspace(db: Queryable, workspaceId: string, conversationId: string): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM conversations WHERE id = $1 AND workspace_id = $2`, [conversationId, workspaceId]);
  return rows.length > 0;
}
