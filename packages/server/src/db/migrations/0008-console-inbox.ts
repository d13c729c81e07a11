import type { Migration } from "./migration.js";

/**
 * What the console reads:
 * - `conversation_reads`: how far each operator has read each conversation (`last_read_seq`, a
 *   conversation event seq); the unread count is the visitor messages above it. It only moves
 *   forward, set by POST /console/conversations/{id}/read.
 * - The visitor's context: `user_agent` (the browser of the latest init) and `last_page_url` (the
 *   page of the latest init or message); the first page stays `page_url`. The visitor's lead is
 *   found by visitor.
 * - Search: a GIN index over each message's words (the `simple` configuration: any language, no
 *   stemming), which `q` reads with `websearch_to_tsquery('simple', …)`.
 * - An operator's notifications in the inbox's order (unread first, then newest).
 */
export const consoleInbox: Migration = {
  name: "0008-console-inbox",
  statements: [
    `CREATE TABLE conversation_reads (
      operator_id text NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
      conversation_id text NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
      last_read_seq integer NOT NULL,
      read_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (operator_id, conversation_id)
    )`,
    `CREATE INDEX conversation_reads_conversation_idx ON conversation_reads (conversation_id)`,
    `ALTER TABLE conversations ADD COLUMN user_agent text`,
    `ALTER TABLE conversations ADD COLUMN last_page_url text`,
    `UPDATE conversations SET last_page_url = page_url`,
    `CREATE INDEX leads_visitor_idx ON leads (visitor_id, updated_at DESC)`,
    `CREATE INDEX messages_content_search_idx ON messages USING gin (to_tsvector('simple', content))`,
    `DROP INDEX inbox_operator_recent_idx`,
    `CREATE INDEX inbox_operator_order_idx ON inbox_notifications (operator_id, (read_at IS NOT NULL), created_at DESC, id DESC)`,
  ],
};
