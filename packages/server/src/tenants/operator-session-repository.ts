import type { Queryable } from "../db/database.js";
import { newId } from "../db/ids.js";
import type { OperatorRole } from "./operator-repository.js";

/** A session ends after 12 hours without a request, and 30 days after sign-in whatever happens. */
export const SESSION_IDLE_TIMEOUT_MS = 12 * 3600 * 1000;
export const SESSION_ABSOLUTE_LIFETIME_MS = 30 * 24 * 3600 * 1000;
/** last_seen_at is written at most once a minute per session, so reads stay reads. */
export const SESSION_TOUCH_INTERVAL_MS = 60 * 1000;

export interface ActiveOperatorSession {
  sessionId: string;
  lastSeenAt: Date;
  expiresAt: Date;
  operator: { id: string; workspaceId: string; role: OperatorRole; name: string; email: string };
}

interface ActiveSessionRow {
  session_id: string;
  last_seen_at: Date;
  expires_at: Date;
  operator_id: string;
  workspace_id: string;
  role: OperatorRole;
  name: string;
  email: string;
}

/** `ssoIdTokenSealed`: a session started by the workspace's OpenID provider keeps its ID token (sealed) for the provider's sign-out. */
export async function insertOperatorSession(db: Queryable, operatorId: string, tokenHash: string, now: Date, ssoIdTokenSealed: string | null = null): Promise<{ id: string; expiresAt: Date }> {
  const expiresAt = new Date(now.getTime() + SESSION_ABSOLUTE_LIFETIME_MS);
  const id = newId("osn");
  await db.query(
    `INSERT INTO operator_sessions (id, operator_id, token_hash, created_at, last_seen_at, expires_at, sso_id_token_sealed) VALUES ($1, $2, $3, $4, $4, $5, $6)`,
    [id, operatorId, tokenHash, now, expiresAt, ssoIdTokenSealed],
  );
  return { id, expiresAt };
}

/** The session of this token hash with its operator, when neither idle nor past its absolute end at `now`. */
export async function findActiveOperatorSession(db: Queryable, tokenHash: string, now: Date): Promise<ActiveOperatorSession | null> {
  const { rows } = await db.query<ActiveSessionRow>(
    `SELECT s.id AS session_id, s.last_seen_at, s.expires_at, o.id AS operator_id, o.workspace_id, o.role, o.name, o.email
       FROM operator_sessions s JOIN operators o ON o.id = s.operator_id
      WHERE s.token_hash = $1 AND s.expires_at > $2 AND s.last_seen_at > $3`,
    [tokenHash, now, new Date(now.getTime() - SESSION_IDLE_TIMEOUT_MS)],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    sessionId: row.session_id,
    lastSeenAt: new Date(row.last_seen_at),
    expiresAt: new Date(row.expires_at),
    operator: { id: row.operator_id, workspaceId: row.workspace_id, role: row.role, name: row.name, email: row.email },
  };
}

/** Moves the session's idle deadline. */
export async function touchOperatorSession(db: Queryable, sessionId: string, now: Date): Promise<void> {
  await db.query(`UPDATE operator_sessions SET last_seen_at = $2 WHERE id = $1 AND last_seen_at < $2`, [sessionId, now]);
}

/** Ends one session (sign-out); returns which it was (null when there was none), for what it was granted. */
export async function deleteOperatorSession(
  db: Queryable,
  tokenHash: string,
): Promise<{ id: string; operatorId: string; workspaceId: string; ssoIdTokenSealed: string | null } | null> {
  const { rows } = await db.query<{ id: string; operator_id: string; workspace_id: string; sso_id_token_sealed: string | null }>(
    `DELETE FROM operator_sessions s USING operators o WHERE s.token_hash = $1 AND o.id = s.operator_id RETURNING s.id, s.operator_id, o.workspace_id, s.sso_id_token_sealed`,
    [tokenHash],
  );
  const row = rows[0];
  return row ? { id: row.id, operatorId: row.operator_id, workspaceId: row.workspace_id, ssoIdTokenSealed: row.sso_id_token_sealed } : null;
}

/** Ends every session of the operator (password changed, sign out everywhere); returns the ids of those that ended. */
export async function deleteOperatorSessions(db: Queryable, operatorId: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(`DELETE FROM operator_sessions WHERE operator_id = $1 RETURNING id`, [operatorId]);
  return rows.map((row) => row.id);
}

/**
 * The role of the operator of a session still live at `now`, or null: read again after a realtime
 * grant is recorded, so that a session ended (or a role changed) meanwhile is not signed for.
 */
export async function liveOperatorSessionRole(db: Queryable, sessionId: string, now: Date): Promise<OperatorRole | null> {
  const { rows } = await db.query<{ role: OperatorRole }>(
    `SELECT o.role FROM operator_sessions s JOIN operators o ON o.id = s.operator_id WHERE s.id = $1 AND s.expires_at > $2 AND s.last_seen_at > $3`,
    [sessionId, now, new Date(now.getTime() - SESSION_IDLE_TIMEOUT_MS)],
  );
  return rows[0]?.role ?? null;
}
