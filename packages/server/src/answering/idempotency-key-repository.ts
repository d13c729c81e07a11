import type { Citation } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";

/** How long a key is kept: a repeat within it answers the first answer again. */
export const IDEMPOTENCY_KEY_HOURS = 24;

/** A key of one conversation. */
export interface IdempotencyKeyRef {
  conversationId: string;
  key: string;
}

/** The final answer kept with its key, replayed to a repeat. */
export interface KeptAnswer {
  messageId: string;
  content: string;
  citations: Citation[];
  lowConfidence: boolean;
  awaitingHuman: boolean;
  discarded?: boolean;
  curated?: boolean;
}

/** A key some earlier request claimed. */
export interface ClaimedKey {
  requestHash: string;
  /** The visitor's message stored with the claim. */
  questionId: string | null;
  /** Null until that request's answer is complete. */
  answer: KeptAnswer | null;
  /** The claiming request may still be answering (its lease has not ended). */
  leased: boolean;
}

export interface NewClaim extends IdempotencyKeyRef {
  workspaceId: string;
  agentId: string;
  visitorId: string;
  requestHash: string;
  leaseSeconds: number;
}

/**
 * Claims the key for this request, or (a key past its expiry) claims it anew: null. Else the claim
 * already there. On Postgres a concurrent claim of the same key waits for this one's transaction,
 * then finds its row.
 */
export async function claimIdempotencyKey(tx: Queryable, claim: NewClaim): Promise<ClaimedKey | null> {
  const { rows: claimed } = await tx.query(
    `INSERT INTO message_idempotency_keys (conversation_id, idempotency_key, workspace_id, agent_id, visitor_id, request_hash, lease_until, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7), now() + make_interval(hours => $8))
     ON CONFLICT (conversation_id, idempotency_key) DO UPDATE
       SET request_hash = EXCLUDED.request_hash, question_id = NULL, answer = NULL, lease_until = EXCLUDED.lease_until,
           created_at = now(), expires_at = EXCLUDED.expires_at
       WHERE message_idempotency_keys.expires_at <= now()
     RETURNING 1`,
    [claim.conversationId, claim.key, claim.workspaceId, claim.agentId, claim.visitorId, claim.requestHash, claim.leaseSeconds, IDEMPOTENCY_KEY_HOURS],
  );
  if (claimed.length > 0) return null;
  const { rows } = await tx.query<{ request_hash: string; question_id: string | null; answer: KeptAnswer | null; leased: boolean }>(
    `SELECT request_hash, question_id, answer, lease_until > now() AS leased FROM message_idempotency_keys
     WHERE conversation_id = $1 AND idempotency_key = $2`,
    [claim.conversationId, claim.key],
  );
  const row = rows[0];
  if (!row) throw new Error(`idempotency key of conversation ${claim.conversationId} vanished while claimed`);
  return { requestHash: row.request_hash, questionId: row.question_id, answer: row.answer, leased: row.leased };
}

/** Records the visitor's message stored with the claim (in the claim's transaction). */
export async function attachQuestion(tx: Queryable, ref: IdempotencyKeyRef, questionId: string): Promise<void> {
  await tx.query(`UPDATE message_idempotency_keys SET question_id = $3 WHERE conversation_id = $1 AND idempotency_key = $2`, [ref.conversationId, ref.key, questionId]);
}

/** Takes over a key whose claiming request ended without an answer (its lease ended); false when another request took it first. */
export async function takeOverIdempotencyKey(db: Queryable, ref: IdempotencyKeyRef, leaseSeconds: number): Promise<boolean> {
  const { rows } = await db.query(
    `UPDATE message_idempotency_keys SET lease_until = now() + make_interval(secs => $3)
     WHERE conversation_id = $1 AND idempotency_key = $2 AND answer IS NULL AND lease_until <= now()
     RETURNING 1`,
    [ref.conversationId, ref.key, leaseSeconds],
  );
  return rows.length > 0;
}

/** Keeps the final answer: a repeat of the key now gets it. */
export async function completeIdempotencyKey(db: Queryable, ref: IdempotencyKeyRef, answer: KeptAnswer): Promise<void> {
  await db.query(`UPDATE message_idempotency_keys SET answer = $3::jsonb, lease_until = now() WHERE conversation_id = $1 AND idempotency_key = $2`, [
    ref.conversationId,
    ref.key,
    JSON.stringify(answer),
  ]);
}

/** The answer failed: its lease ends now, so that a repeat answers the stored question at once. */
export async function releaseIdempotencyKey(db: Queryable, ref: IdempotencyKeyRef): Promise<void> {
  await db.query(`UPDATE message_idempotency_keys SET lease_until = now() WHERE conversation_id = $1 AND idempotency_key = $2 AND answer IS NULL`, [ref.conversationId, ref.key]);
}

/** Erasure: every key of the visitor. */
export async function deleteVisitorIdempotencyKeys(tx: Queryable, workspaceId: string, visitorId: string): Promise<number> {
  const { rows } = await tx.query(`DELETE FROM message_idempotency_keys WHERE workspace_id = $1 AND visitor_id = $2 RETURNING 1`, [workspaceId, visitorId]);
  return rows.length;
}

/** The hourly purge: keys past their 24 hours. */
export async function deleteExpiredIdempotencyKeys(db: Queryable): Promise<number> {
  const { rows } = await db.query(`DELETE FROM message_idempotency_keys WHERE expires_at <= now() RETURNING 1`);
  return rows.length;
}
