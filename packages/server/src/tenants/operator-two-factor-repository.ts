import type { Queryable } from "../db/database.js";
import { newId } from "../db/ids.js";

/** An operator's two-factor state as sign-in and the settings read it (secrets still sealed). */
export interface OperatorTwoFactor {
  operatorId: string;
  email: string;
  /** The confirmed authenticator's secret, sealed; null when two-factor sign-in is off. */
  secretSealed: string | null;
  /** An enrolment begun and not confirmed yet. */
  pendingSecretSealed: string | null;
  enabledAt: Date | null;
  lastTimeStep: number | null;
  recoveryCodesLeft: number;
  /** Whether the operator's workspace requires two-factor sign-in. */
  requiredByWorkspace: boolean;
}

interface TwoFactorRow {
  id: string;
  email: string;
  totp_secret_sealed: string | null;
  totp_pending_secret_sealed: string | null;
  totp_enabled_at: Date | null;
  totp_last_time_step: string | number | null;
  require_two_factor: boolean;
  recovery_codes_left: string | number;
}

export async function findOperatorTwoFactor(db: Queryable, operatorId: string): Promise<OperatorTwoFactor | null> {
  const { rows } = await db.query<TwoFactorRow>(
    `SELECT o.id, o.email, o.totp_secret_sealed, o.totp_pending_secret_sealed, o.totp_enabled_at, o.totp_last_time_step, w.require_two_factor,
            (SELECT count(*) FROM operator_recovery_codes c WHERE c.operator_id = o.id AND c.used_at IS NULL) AS recovery_codes_left
       FROM operators o JOIN workspaces w ON w.id = o.workspace_id
      WHERE o.id = $1`,
    [operatorId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    operatorId: row.id,
    email: row.email,
    secretSealed: row.totp_secret_sealed,
    pendingSecretSealed: row.totp_pending_secret_sealed,
    enabledAt: row.totp_enabled_at ? new Date(row.totp_enabled_at) : null,
    lastTimeStep: row.totp_last_time_step === null ? null : Number(row.totp_last_time_step),
    recoveryCodesLeft: Number(row.recovery_codes_left),
    requiredByWorkspace: row.require_two_factor,
  };
}

/** Keeps a new, unconfirmed secret (a new enrolment replaces an unconfirmed one; a confirmed one stays until this one is confirmed). */
export async function storePendingTotpSecret(db: Queryable, operatorId: string, sealed: string): Promise<void> {
  await db.query(`UPDATE operators SET totp_pending_secret_sealed = $2 WHERE id = $1`, [operatorId, sealed]);
}

/**
 * Confirms the pending secret: it becomes the operator's, the code's time step is the last one used,
 * and the recovery codes are replaced by these hashes. False when the pending secret changed meanwhile.
 */
export async function confirmTotpSecret(db: Queryable, operatorId: string, pendingSealed: string, timeStep: number, recoveryCodeHashes: string[], now: Date): Promise<boolean> {
  const { rows } = await db.query(
    `UPDATE operators SET totp_secret_sealed = totp_pending_secret_sealed, totp_pending_secret_sealed = NULL, totp_enabled_at = $3, totp_last_time_step = $4
      WHERE id = $1 AND totp_pending_secret_sealed = $2 RETURNING id`,
    [operatorId, pendingSealed, now, timeStep],
  );
  if (!rows[0]) return false;
  await replaceRecoveryCodes(db, operatorId, recoveryCodeHashes, now);
  return true;
}

/** Replaces every recovery code of the operator. */
export async function replaceRecoveryCodes(db: Queryable, operatorId: string, codeHashes: string[], now: Date): Promise<void> {
  await db.query(`DELETE FROM operator_recovery_codes WHERE operator_id = $1`, [operatorId]);
  for (const codeHash of codeHashes) {
    await db.query(`INSERT INTO operator_recovery_codes (id, operator_id, code_hash, created_at) VALUES ($1, $2, $3, $4)`, [newId("orc"), operatorId, codeHash, now]);
  }
}

/**
 * Records that a code of this time step was accepted, when no code of it or a later step was
 * (one statement: two requests racing with the same code cannot both win). False: a replay.
 */
export async function useTotpTimeStep(db: Queryable, operatorId: string, timeStep: number): Promise<boolean> {
  const { rows } = await db.query(
    `UPDATE operators SET totp_last_time_step = $2 WHERE id = $1 AND totp_secret_sealed IS NOT NULL AND (totp_last_time_step IS NULL OR totp_last_time_step < $2) RETURNING id`,
    [operatorId, timeStep],
  );
  return rows.length > 0;
}

/** Uses up one recovery code of the operator; false when it is not theirs or was used. */
export async function useRecoveryCode(db: Queryable, operatorId: string, codeHash: string, now: Date): Promise<boolean> {
  const { rows } = await db.query(
    `UPDATE operator_recovery_codes SET used_at = $3 WHERE operator_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING id`,
    [operatorId, codeHash, now],
  );
  return rows.length > 0;
}

/** Turns two-factor sign-in off for the operator: the secrets and recovery codes go. */
export async function removeTotp(db: Queryable, operatorId: string): Promise<void> {
  await db.query(
    `UPDATE operators SET totp_secret_sealed = NULL, totp_pending_secret_sealed = NULL, totp_enabled_at = NULL, totp_last_time_step = NULL WHERE id = $1`,
    [operatorId],
  );
  await db.query(`DELETE FROM operator_recovery_codes WHERE operator_id = $1`, [operatorId]);
}

/** Whether the workspace requires two-factor sign-in of its operators. */
export async function setWorkspaceTwoFactorRequired(db: Queryable, workspaceId: string, required: boolean): Promise<void> {
  await db.query(`UPDATE workspaces SET require_two_factor = $2 WHERE id = $1`, [workspaceId, required]);
}

/** Whether the workspace requires two-factor sign-in (false for no such workspace). */
export async function workspaceRequiresTwoFactor(db: Queryable, workspaceId: string): Promise<boolean> {
  const { rows } = await db.query<{ require_two_factor: boolean }>(`SELECT require_two_factor FROM workspaces WHERE id = $1`, [workspaceId]);
  return rows[0]?.require_two_factor ?? false;
}
