import type { Queryable } from "../db/database.js";
import { newId } from "../db/ids.js";

/** A setup link works 24 hours, once, and only while the deployment has no operator. */
export const SETUP_TOKEN_LIFETIME_MS = 24 * 3600 * 1000;

/** Whether any operator exists, in any workspace: the first run is over once one does. */
export async function anyOperatorExists(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ found: boolean }>(`SELECT EXISTS (SELECT 1 FROM operators) AS found`);
  return rows[0]?.found === true;
}

/** Stores a new setup token's hash (expired ones are dropped; unexpired ones keep working). */
export async function insertSetupToken(db: Queryable, tokenHash: string, now: Date): Promise<Date> {
  const expiresAt = new Date(now.getTime() + SETUP_TOKEN_LIFETIME_MS);
  await db.query(`DELETE FROM setup_tokens WHERE expires_at <= $1`, [now]);
  await db.query(`INSERT INTO setup_tokens (id, token_hash, expires_at, created_at) VALUES ($1, $2, $3, $4)`, [newId("stp"), tokenHash, expiresAt, now]);
  return expiresAt;
}

/** When the token of this hash stops working, if it is unused and unexpired at `now`; else null. */
export async function findUsableSetupToken(db: Queryable, tokenHash: string, now: Date): Promise<Date | null> {
  const { rows } = await db.query<{ expires_at: Date }>(
    `SELECT expires_at FROM setup_tokens WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2`,
    [tokenHash, now],
  );
  return rows[0]?.expires_at ?? null;
}

/**
 * Serialises setups until the transaction ends: two links used at the same moment cannot both
 * see "no operator yet" and make two first admins.
 */
export async function lockSetup(tx: Queryable): Promise<void> {
  await tx.query(`LOCK TABLE setup_tokens IN EXCLUSIVE MODE`);
}

/** Spends the token (true) when it is unused and unexpired at `now`, and drops every other one. */
export async function consumeSetupToken(tx: Queryable, tokenHash: string, now: Date): Promise<boolean> {
  const { rows } = await tx.query<{ id: string }>(
    `UPDATE setup_tokens SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING id`,
    [tokenHash, now],
  );
  const spent = rows[0];
  if (!spent) return false;
  await tx.query(`DELETE FROM setup_tokens WHERE id <> $1`, [spent.id]);
  return true;
}
