import type { Queryable } from "../db/database.js";
import { newId } from "../db/ids.js";
import { iso } from "../db/timestamps.js";

export interface Operator {
  id: string;
  workspaceId: string;
  email: string;
  name: string;
  createdAt: string;
}

interface OperatorRow {
  id: string;
  workspace_id: string;
  email: string;
  name: string;
  created_at: Date;
}

const toOperator = (row: OperatorRow): Operator => ({
  id: row.id,
  workspaceId: row.workspace_id,
  email: row.email,
  name: row.name,
  createdAt: iso(row.created_at),
});

/** Inserts the operator; null when the workspace already has one with that e-mail. */
export async function insertOperator(db: Queryable, workspaceId: string, email: string, name: string): Promise<Operator | null> {
  const { rows } = await db.query<OperatorRow>(
    `INSERT INTO operators (id, workspace_id, email, name) VALUES ($1, $2, $3, $4)
     ON CONFLICT (workspace_id, lower(email)) DO NOTHING RETURNING *`,
    [newId("op"), workspaceId, email, name],
  );
  return rows[0] ? toOperator(rows[0]) : null;
}

export async function findOperator(db: Queryable, operatorId: string): Promise<Operator | null> {
  const { rows } = await db.query<OperatorRow>(`SELECT * FROM operators WHERE id = $1`, [operatorId]);
  return rows[0] ? toOperator(rows[0]) : null;
}

/** The workspace's operators in creation order (index operators_workspace_created_idx). */
export async function listWorkspaceOperators(db: Queryable, workspaceId: string): Promise<Operator[]> {
  const { rows } = await db.query<OperatorRow>(`SELECT * FROM operators WHERE workspace_id = $1 ORDER BY created_at, id`, [workspaceId]);
  return rows.map(toOperator);
}
