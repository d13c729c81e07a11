import type { Queryable } from "../db/database.js";
import { toOperator, type Operator, type OperatorRole, type OperatorRow } from "./operator-repository.js";

/**
 * Locks the workspace's admins (rows of operators_workspace_created_idx, in id order) until the
 * transaction ends, and returns their ids. Two admins demoting or removing each other at once
 * wait for each other here, and the second sees the first's change: a workspace never loses its
 * last admin.
 */
export async function lockWorkspaceAdmins(tx: Queryable, workspaceId: string): Promise<string[]> {
  const { rows } = await tx.query<{ id: string }>(`SELECT id FROM operators WHERE workspace_id = $1 AND role = 'admin' ORDER BY id FOR UPDATE`, [workspaceId]);
  return rows.map((row) => row.id);
}

/** The operator when they belong to the workspace (another workspace's id reads as unknown). */
export async function findWorkspaceOperator(db: Queryable, workspaceId: string, operatorId: string): Promise<Operator | null> {
  const { rows } = await db.query<OperatorRow>(`SELECT * FROM operators WHERE id = $1 AND workspace_id = $2`, [operatorId, workspaceId]);
  return rows[0] ? toOperator(rows[0]) : null;
}

export async function updateOperatorRole(tx: Queryable, workspaceId: string, operatorId: string, role: OperatorRole): Promise<Operator | null> {
  const { rows } = await tx.query<OperatorRow>(`UPDATE operators SET role = $3 WHERE id = $1 AND workspace_id = $2 RETURNING *`, [operatorId, workspaceId, role]);
  return rows[0] ? toOperator(rows[0]) : null;
}

/** The workspace's operator of this e-mail (any case; the unique index on workspace and lower(email)). */
export async function findWorkspaceOperatorByEmail(db: Queryable, workspaceId: string, email: string): Promise<Operator | null> {
  const { rows } = await db.query<OperatorRow>(`SELECT * FROM operators WHERE workspace_id = $1 AND lower(email) = lower($2)`, [workspaceId, email]);
  return rows[0] ? toOperator(rows[0]) : null;
}
