import type { Migration } from "./migration.js";

/**
 * The `Idempotency-Key` of POST /messages(/stream) (issue 30, item 5): a widget that lost the answer
 * (the service restarted, the network dropped) sends the same message again with the same key, and
 * gets the first answer instead of a second stored message. A key is claimed in the transaction that
 * stores the visitor's message (`question_id`); `answer` is the final answer once it is complete;
 * until then `lease_until` says how long the request that claimed it may still be answering (a
 * repeat meanwhile is 409, after it the repeat answers the stored question). Keys are the
 * conversation's (erased with it, and with their visitor), kept 24 hours (`expires_at`, purged
 * hourly with the retention job).
 */
export const messageIdempotencyKeys: Migration = {
  name: "0030-message-idempotency-keys",
  statements: [
    `CREATE TABLE message_idempotency_keys (
      conversation_id text NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
      idempotency_key text NOT NULL,
      workspace_id text NOT NULL,
      agent_id text NOT NULL,
      visitor_id text NOT NULL,
      request_hash text NOT NULL,
      question_id text,
      answer jsonb,
      lease_until timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      PRIMARY KEY (conversation_id, idempotency_key)
    )`,
    `CREATE INDEX message_idempotency_keys_expiry_idx ON message_idempotency_keys (expires_at)`,
    `CREATE INDEX message_idempotency_keys_visitor_idx ON message_idempotency_keys (workspace_id, visitor_id)`,
  ],
};
