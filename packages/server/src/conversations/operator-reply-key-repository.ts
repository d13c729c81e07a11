import type { Queryable } from "../db/database.js";

/** How long an operator's reply key is kept: a console's retry comes within seconds; a day covers a laptop woken from sleep. */
const KEPT_HOURS = 24;

/** The reply stored the first time a key was sent, and what it was sent with. */
export interface KeptReply<Reply> {
  operatorId: string;
  requestHash: string;
  reply: Reply;
}

/** The reply kept for `key` in the conversation, unless none was or it expired. Read under the conversation's row lock. */
export async function findKeptReply<Reply>(db: Queryable, conversationId: string, key: string): Promise<KeptReply<Reply> | null> {
  const { rows } = await db.query<{ operator_id: string; request_hash: string; reply: Reply }>(
    `SELECT operator_id, request_hash, reply FROM operator_reply_keys WHERE conversation_id = $1 AND idempotency_key = $2 AND expires_at > now()`,
    [conversationId, key],
  );
  const row = rows[0];
  return row ? { operatorId: row.operator_id, requestHash: row.request_hash, reply: row.reply } : null;
}

/** Keeps the reply stored for `key` (in the reply's transaction); an expired key of the conversation is taken over. */
export async function keepReply(db: Queryable, conversationId: string, key: string, kept: KeptReply<unknown>): Promise<void> {
  await db.query(
    `INSERT INTO operator_reply_keys (conversation_id, idempotency_key, operator_id, request_hash, reply, expires_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, now() + make_interval(hours => $6))
     ON CONFLICT (conversation_id, idempotency_key) DO UPDATE
       SET operator_id = EXCLUDED.operator_id, request_hash = EXCLUDED.request_hash, reply = EXCLUDED.reply, expires_at = EXCLUDED.expires_at`,
    [conversationId, key, kept.operatorId, kept.requestHash, JSON.stringify(kept.reply), KEPT_HOURS],
  );
}

/** Deletes the keys past their 24 hours (the hourly retention job); returns how many. */
export async function deleteExpiredReplyKeys(db: Queryable): Promise<number> {
  const { rows } = await db.query(`DELETE FROM operator_reply_keys WHERE expires_at <= now() RETURNING 1`);
  return rows.length;
}
