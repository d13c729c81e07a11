import type { Queryable } from "../db/database.js";
import { newId } from "../db/ids.js";
import { deleteOperatorSessions } from "./operator-session-repository.js";

/** An operator with an account, as sign-in finds them (the console's signed-in operator). */
export interface OperatorAccount {
  id: string;
  workspaceId: string;
  role: "admin" | "agent";
  name: string;
  email: string;
}

/** Set-password links are valid 24 hours, once. */
export const PASSWORD_TOKEN_LIFETIME_MS = 24 * 3600 * 1000;

interface CredentialsRow {
  id: string;
  workspace_id: string;
  role: "admin" | "agent";
  name: string;
  email: string;
  password_hash: string | null;
}

/**
 * The account of this e-mail (any case): the operator with a password, unique across the deployment
 * (migration 0025). An invitation not yet accepted has no password and is no account: it signs in
 * as an unknown e-mail would, whichever workspace sent it.
 */
export async function findOperatorCredentials(db: Queryable, email: string): Promise<{ operator: OperatorAccount; passwordHash: string | null } | null> {
  const { rows } = await db.query<CredentialsRow>(
    `SELECT id, workspace_id, role, name, email, password_hash FROM operators WHERE lower(email) = lower($1) AND password_hash IS NOT NULL`,
    [email],
  );
  const row = rows[0];
  if (!row) return null;
  return { operator: { id: row.id, workspaceId: row.workspace_id, role: row.role, name: row.name, email: row.email }, passwordHash: row.password_hash };
}

/**
 * Stores the operator's new password hash and ends what the old password allowed: every session
 * and every unused set-password link. Returns the ids of the sessions that ended; null when there
 * is no such operator.
 */
export async function replaceOperatorPassword(db: Queryable, operatorId: string, passwordHash: string, now: Date): Promise<string[] | null> {
  const { rows } = await db.query<{ id: string }>(
    `UPDATE operators SET password_hash = $2, password_changed_at = $3 WHERE id = $1 RETURNING id`,
    [operatorId, passwordHash, now],
  );
  if (!rows[0]) return null;
  const endedSessionIds = await deleteOperatorSessions(db, operatorId);
  await db.query(`DELETE FROM operator_password_tokens WHERE operator_id = $1 AND used_at IS NULL`, [operatorId]);
  return endedSessionIds;
}

/** A new set-password token of the operator; earlier unused ones stop working. */
export async function insertPasswordToken(db: Queryable, operatorId: string, tokenHash: string, now: Date): Promise<Date> {
  const expiresAt = new Date(now.getTime() + PASSWORD_TOKEN_LIFETIME_MS);
  await db.query(`DELETE FROM operator_password_tokens WHERE operator_id = $1 AND used_at IS NULL`, [operatorId]);
  await db.query(
    `INSERT INTO operator_password_tokens (id, operator_id, token_hash, expires_at, created_at) VALUES ($1, $2, $3, $4, $5)`,
    [newId("pwt"), operatorId, tokenHash, expiresAt, now],
  );
  return expiresAt;
}

/** Marks the token used and returns its operator, when it is unused and unexpired at `now`; else null. */
export async function consumePasswordToken(db: Queryable, tokenHash: string, now: Date): Promise<string | null> {
  const { rows } = await db.query<{ operator_id: string }>(
    `UPDATE operator_password_tokens SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING operator_id`,
    [tokenHash, now],
  );
  return rows[0]?.operator_id ?? null;
}
