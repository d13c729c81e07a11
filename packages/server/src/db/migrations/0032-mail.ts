import type { Migration } from "./migration.js";

/**
 * Outbound e-mail (issue 30, src/mail/). `mail_messages` is both the outbox and the delivery log:
 * a mail's rendered subject and bodies (they may quote a visitor's words, so erasure deletes them by
 * `visitor_id` and `conversation_id`), its recipient and its status: `waiting` (no SMTP configured;
 * released when a worker starts with SMTP), `queued`, `sending` (on a lease), `retrying`, `sent`,
 * `failed`. A `send-mail` job names a mail by id only. `mail_attempts` records each attempt's outcome
 * and the SMTP server's answer. `about_seq` is the message a mail about an unseen message was sent
 * for, so that a burst of messages makes one mail.
 *
 * `mail_checks`: a decision to take later (are the operators away? has the visitor seen the reply?),
 * written by the change that raises it; its `mail-check` job names it by id, so no job holds a
 * conversation's or visitor's id, and erasure deletes what is pending with the rest.
 *
 * `mail_alert_preferences`: how each operator wants to be reached (every alert, an hourly digest,
 * none; no row: every alert). `mail_digest_items`: the alerts waiting for an operator's next digest.
 */
export const mail: Migration = {
  name: "0032-mail",
  statements: [
    `CREATE TABLE mail_messages (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('operator_alert', 'operator_unseen', 'operator_digest', 'visitor_reply', 'transcript')),
      recipient text NOT NULL,
      recipient_name text,
      operator_id text REFERENCES operators (id) ON DELETE CASCADE,
      visitor_id text,
      conversation_id text,
      about_seq bigint,
      language text NOT NULL,
      subject text NOT NULL,
      text_body text NOT NULL,
      html_body text NOT NULL,
      status text NOT NULL CHECK (status IN ('waiting', 'queued', 'sending', 'retrying', 'sent', 'failed')),
      attempts integer NOT NULL DEFAULT 0,
      lease_until timestamptz,
      next_attempt_at timestamptz,
      last_error text,
      smtp_message_id text,
      created_at timestamptz NOT NULL DEFAULT now(),
      sent_at timestamptz
    )`,
    `CREATE INDEX mail_messages_workspace_idx ON mail_messages (workspace_id, created_at DESC, id DESC)`,
    `CREATE INDEX mail_messages_visitor_idx ON mail_messages (workspace_id, visitor_id) WHERE visitor_id IS NOT NULL`,
    `CREATE INDEX mail_messages_conversation_idx ON mail_messages (workspace_id, conversation_id, kind) WHERE conversation_id IS NOT NULL`,
    `CREATE INDEX mail_messages_waiting_idx ON mail_messages (created_at) WHERE status = 'waiting'`,
    `CREATE TABLE mail_attempts (
      mail_id text NOT NULL REFERENCES mail_messages (id) ON DELETE CASCADE,
      attempt integer NOT NULL,
      outcome text NOT NULL CHECK (outcome IN ('sent', 'failed', 'refused')),
      smtp_code integer,
      detail text,
      duration_ms integer NOT NULL,
      at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (mail_id, attempt)
    )`,
    `CREATE TABLE mail_checks (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('away_operators', 'unseen_by_visitor', 'unseen_by_operator')),
      conversation_id text NOT NULL,
      visitor_id text NOT NULL,
      seq bigint NOT NULL,
      due_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX mail_checks_visitor_idx ON mail_checks (workspace_id, visitor_id)`,
    `CREATE INDEX mail_checks_conversation_idx ON mail_checks (workspace_id, conversation_id)`,
    `CREATE TABLE mail_alert_preferences (
      operator_id text PRIMARY KEY REFERENCES operators (id) ON DELETE CASCADE,
      email_alerts text NOT NULL CHECK (email_alerts IN ('every', 'digest', 'none')),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE TABLE mail_digest_items (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      operator_id text NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
      conversation_id text NOT NULL,
      visitor_id text NOT NULL,
      kind text NOT NULL CHECK (kind IN ('operator_alert', 'operator_unseen')),
      summary text NOT NULL,
      page_url text,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX mail_digest_items_operator_idx ON mail_digest_items (operator_id, created_at)`,
    `CREATE INDEX mail_digest_items_visitor_idx ON mail_digest_items (workspace_id, visitor_id)`,
    `CREATE INDEX mail_digest_items_conversation_idx ON mail_digest_items (workspace_id, conversation_id)`,
  ],
};
