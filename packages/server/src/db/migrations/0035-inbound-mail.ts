import type { Migration } from "./migration.js";

/**
 * Replies by e-mail (issue 30 item 3, src/mail/). A mail to a visitor about their conversation gets
 * a `reply_key`: 24 random lower-case letters and digits, unguessable, which its Message-ID carries
 * and, with FRONTDESK_MAIL_REPLY_TO, its Reply-To's sub-address (`reply+<key>@…`). A reply is
 * matched to its conversation by that key, through the mail row: erasure, which deletes the visitor's
 * mails, leaves nothing a later reply could match.
 *
 * `mail_inbound`: each inbound mail that entered a conversation, by its key (its Message-ID, or the
 * SHA-256 of the raw mail when it has none), so that a mail polled twice or posted again by a
 * provider is stored once; erasure deletes the visitor's rows.
 */
export const inboundMail: Migration = {
  name: "0035-inbound-mail",
  statements: [
    `ALTER TABLE mail_messages ADD COLUMN reply_key text`,
    `CREATE UNIQUE INDEX mail_messages_reply_key_idx ON mail_messages (reply_key) WHERE reply_key IS NOT NULL`,
    `CREATE TABLE mail_inbound (
      inbound_key text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      conversation_id text NOT NULL,
      visitor_id text NOT NULL,
      message_id text NOT NULL,
      channel text NOT NULL CHECK (channel IN ('imap', 'mailgun', 'postmark')),
      received_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX mail_inbound_visitor_idx ON mail_inbound (workspace_id, visitor_id)`,
    `CREATE INDEX mail_inbound_conversation_idx ON mail_inbound (workspace_id, conversation_id)`,
  ],
};
