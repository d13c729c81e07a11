import type { Queryable } from "../db/database.js";
import { newId } from "../db/ids.js";
import { textArray } from "../db/text-array.js";
import { iso } from "../db/timestamps.js";

export const OPERATOR_ROLES = ["admin", "agent"] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export interface Operator {
  id: string;
  workspaceId: string;
  email: string;
  name: string;
  role: OperatorRole;
  /** Whether a password is set (the hash itself never leaves the repository's callers that need it). */
  hasPassword: boolean;
  /** Away while signed in: offline for routing, the widget's availability and the nobody-online alerts. */
  away: boolean;
  createdAt: string;
}

export interface OperatorRow {
  id: string;
  workspace_id: string;
  email: string;
  name: string;
  role: OperatorRole;
  password_hash: string | null;
  away_since: Date | null;
  created_at: Date;
}

export const toOperator = (row: OperatorRow): Operator => ({
  id: row.id,
  workspaceId: row.workspace_id,
  email: row.email,
  name: row.name,
  role: row.role,
  hasPassword: row.password_hash !== null,
  away: row.away_since !== null,
  createdAt: iso(row.created_at),
});

export interface NewOperator {
  workspaceId: string;
  email: string;
  name: string;
  /** Absent: `admin` when the workspace has no operator yet, else `agent`. */
  role?: OperatorRole | undefined;
}

/**
 * Inserts the operator, with no password yet (an invitation); null when an operator of the same
 * workspace already has that e-mail. Another workspace's operator may have it: e-mails are unique
 * among accounts (operators with a password, migration 0025), which setting a password enforces.
 */
export async function insertOperator(db: Queryable, operator: NewOperator): Promise<Operator | null> {
  const { rows } = await db.query<OperatorRow>(
    `INSERT INTO operators (id, workspace_id, email, name, role)
     VALUES ($1, $2, $3, $4, COALESCE($5, CASE WHEN EXISTS (SELECT 1 FROM operators WHERE workspace_id = $2) THEN 'agent' ELSE 'admin' END))
     ON CONFLICT (workspace_id, lower(email)) DO NOTHING RETURNING *`,
    [newId("op"), operator.workspaceId, operator.email, operator.name, operator.role ?? null],
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

/** Removes the operator; their sessions, set-password links and notifications go with them. Null: no such operator. */
export async function deleteOperator(db: Queryable, operatorId: string): Promise<Operator | null> {
  const { rows } = await db.query<OperatorRow>(`DELETE FROM operators WHERE id = $1 RETURNING *`, [operatorId]);
  return rows[0] ? toOperator(rows[0]) : null;
}

/** Marks the operator away (from `now`, unless already) or available again; their state after, or null when no such operator. */
export async function setOperatorAway(db: Queryable, operatorId: string, away: boolean, now: Date): Promise<boolean | null> {
  const { rows } = await db.query<{ away: boolean }>(
    `UPDATE operators SET away_since = CASE WHEN $2 THEN COALESCE(away_since, $3) END WHERE id = $1 RETURNING away_since IS NOT NULL AS away`,
    [operatorId, away, now],
  );
  return rows[0]?.away ?? null;
}

/** Whether any operator of the workspace is away (read by operators_workspace_created_idx). */
export async function anyOperatorAway(db: Queryable, workspaceId: string): Promise<boolean> {
  const { rows } = await db.query<{ away: boolean }>(`SELECT EXISTS (SELECT 1 FROM operators WHERE workspace_id = $1 AND away_since IS NOT NULL) AS away`, [workspaceId]);
  return rows[0]?.away ?? false;
}

/** Of the workspace's operators `operatorIds` (those connected, say), the ones not away, by id. */
export async function availableOperatorIds(db: Queryable, workspaceId: string, operatorIds: readonly string[]): Promise<string[]> {
  if (operatorIds.length === 0) return [];
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM operators WHERE workspace_id = $1 AND id = ANY($2::text[]) AND away_since IS NULL ORDER BY id`,
    [workspaceId, textArray(operatorIds)],
  );
  return rows.map((row) => row.id);
}
