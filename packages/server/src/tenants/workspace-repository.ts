import type { Queryable } from "../db/database.js";
import { newId } from "../db/ids.js";
import { iso } from "../db/timestamps.js";

export interface Workspace {
  id: string;
  name: string;
  conversationQuota: number | null;
  createdAt: string;
}

interface WorkspaceRow {
  id: string;
  name: string;
  conversation_quota: number | null;
  created_at: Date;
}

const toWorkspace = (row: WorkspaceRow): Workspace => ({
  id: row.id,
  name: row.name,
  conversationQuota: row.conversation_quota,
  createdAt: iso(row.created_at),
});

export async function insertWorkspace(db: Queryable, name: string, conversationQuota: number | null): Promise<Workspace> {
  const { rows } = await db.query<WorkspaceRow>(
    `INSERT INTO workspaces (id, name, conversation_quota) VALUES ($1, $2, $3) RETURNING *`,
    [newId("ws"), name, conversationQuota],
  );
  return toWorkspace(rows[0]!);
}

export async function findWorkspace(db: Queryable, workspaceId: string): Promise<Workspace | null> {
  const { rows } = await db.query<WorkspaceRow>(`SELECT * FROM workspaces WHERE id = $1`, [workspaceId]);
  return rows[0] ? toWorkspace(rows[0]) : null;
}

/** Every workspace in creation order (index workspaces_created_idx). */
export async function listWorkspaces(db: Queryable): Promise<Workspace[]> {
  const { rows } = await db.query<WorkspaceRow>(`SELECT * FROM workspaces ORDER BY created_at, id`);
  return rows.map(toWorkspace);
}
