import type { Migration } from "./migration.js";

/**
 * The `Idempotency-Key` of an operator's reply (POST /console/conversations/{id}/messages): a
 * console that lost the answer to a reply (the network dropped after the service stored it) sends
 * it again with the same key and gets the reply stored the first time instead of a second message
 * for the visitor. `request_hash` is the reply's content and attachments; `reply` is the answer
 * given the first time, without its files (a repeat signs their links anew). Kept 24 hours (`expires_at`, purged hourly by the retention job); deleted
 * with the conversation (and so with the visitor's erasure).
 */
export const operatorReplyKeys: Migration = {
  name: "0053-operator-reply-keys",
  statements: [
    `CREATE TABLE operator_reply_keys (
      conversation_id text NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
      idempotency_key text NOT NULL,
      operator_id text NOT NULL,
      request_hash text NOT NULL,
      reply jsonb NOT NULL,
      expires_at timestamptz NOT NULL,
      PRIMARY KEY (conversation_id, idempotency_key)
    )`,
    `CREATE INDEX operator_reply_keys_expiry_idx ON operator_reply_keys (expires_at)`,
  ],
};
