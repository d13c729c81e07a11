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
/** The workspaces the retention job visits, with their override: all of them when the deployment sets a period, else those with one. */
export async function listRetentionWorkspaces(db: Queryable, deploymentDays: number | null): Promise<{ id: string; retentionDays: number | null }[]> {
  const { rows } = await db.query<{ id: string; retention_days: number | null }>(
    deploymentDays === null
      ? `SELECT id, retention_days FROM workspaces WHERE retention_days IS NOT NULL ORDER BY id`
      : `SELECT id, retention_days FROM workspaces ORDER BY created_at, id`,
  );
  return rows.map((row) => ({ id: row.id, retentionDays: row.retention_days }));
}

/** Sets the workspace's retention override (null: the deployment's; 0: keep forever); false when there is no such workspace. */
export async function setWorkspaceRetention(db: Queryable, workspaceId: string, retentionDays: number | null): Promise<boolean> {
  const { rows } = await db.query(`UPDATE workspaces SET retention_days = $2 WHERE id = $1 RETURNING id`, [workspaceId, retentionDays]);
  return rows.length > 0;
}

/** The oldest workspace (one made by the CLI before the first run), adopted by the setup; null when none. */
export async function findFirstWorkspace(db: Queryable): Promise<{ id: string; name: string } | null> {
  const { rows } = await db.query<{ id: string; name: string }>(`SELECT id, name FROM workspaces ORDER BY created_at, id LIMIT 1`);
  return rows[0] ?? null;
}

export async function renameWorkspace(db: Queryable, workspaceId: string, name: string): Promise<void> {
  await db.query(`UPDATE workspaces SET name = $2 WHERE id = $1`, [workspaceId, name]);
}
