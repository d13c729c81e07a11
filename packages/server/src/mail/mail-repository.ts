import type { MailMessage } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { newId } from "../db/ids.js";
import { textArray } from "../db/text-array.js";
import { iso, isoOrNull } from "../db/timestamps.js";

export type MailKind = MailMessage["kind"];
export type MailStatus = MailMessage["status"];

/** A mail as queued: rendered, addressed, and what it is about (erasure finds it by visitor and conversation). */
export interface NewMail {
  workspaceId: string;
  kind: MailKind;
  recipient: string;
  recipientName: string | null;
  operatorId: string | null;
  visitorId: string | null;
  conversationId: string | null;
  aboutSeq: number | null;
  language: string;
  subject: string;
  text: string;
  html: string;
  status: "queued" | "waiting";
  /** A mail to a visitor about their conversation: the key a reply names it by (reply-key.ts). */
  replyKey: string | null;
}

export async function insertMail(tx: Queryable, mail: NewMail): Promise<string> {
  const id = newId("mail");
  await tx.query(
    `INSERT INTO mail_messages (id, workspace_id, kind, recipient, recipient_name, operator_id, visitor_id, conversation_id, about_seq, language, subject, text_body, html_body, status, reply_key)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
    [id, mail.workspaceId, mail.kind, mail.recipient, mail.recipientName, mail.operatorId, mail.visitorId, mail.conversationId, mail.aboutSeq, mail.language, mail.subject, mail.text, mail.html, mail.status, mail.replyKey],
  );
  return id;
}

/** A mail as its sender reads it, locked. */
export interface LockedMail {
  id: string;
  status: MailStatus;
  attempts: number;
  leaseUntil: Date | null;
  recipient: string;
  recipientName: string | null;
  language: string;
  subject: string;
  text: string;
  html: string;
  replyKey: string | null;
}

export async function lockMail(tx: Queryable, workspaceId: string, mailId: string): Promise<LockedMail | null> {
  const { rows } = await tx.query<{
    id: string; status: MailStatus; attempts: number; lease_until: Date | string | null; recipient: string; recipient_name: string | null; language: string; subject: string; text_body: string; html_body: string; reply_key: string | null;
  }>(
    `SELECT id, status, attempts, lease_until, recipient, recipient_name, language, subject, text_body, html_body, reply_key
     FROM mail_messages WHERE id = $1 AND workspace_id = $2 FOR UPDATE`,
    [mailId, workspaceId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    status: row.status,
    attempts: row.attempts,
    leaseUntil: row.lease_until === null ? null : new Date(row.lease_until),
    recipient: row.recipient,
    recipientName: row.recipient_name,
    language: row.language,
    subject: row.subject,
    text: row.text_body,
    html: row.html_body,
    replyKey: row.reply_key,
  };
}

/** The attempt starts: `sending` until the lease ends (a worker that dies leaves it to the next). */
export async function startMailAttempt(tx: Queryable, mailId: string, attempt: number, leaseUntil: Date): Promise<void> {
  await tx.query(`UPDATE mail_messages SET status = 'sending', attempts = $2, lease_until = $3, next_attempt_at = NULL WHERE id = $1`, [mailId, attempt, leaseUntil]);
}

export interface AttemptRecord {
  mailId: string;
  attempt: number;
  outcome: "sent" | "failed" | "refused";
  smtpCode: number | null;
  detail: string | null;
  durationMs: number;
  at: Date;
}

export async function insertMailAttempt(tx: Queryable, record: AttemptRecord): Promise<void> {
  await tx.query(
    `INSERT INTO mail_attempts (mail_id, attempt, outcome, smtp_code, detail, duration_ms, at) VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (mail_id, attempt) DO UPDATE SET outcome = EXCLUDED.outcome, smtp_code = EXCLUDED.smtp_code, detail = EXCLUDED.detail, duration_ms = EXCLUDED.duration_ms, at = EXCLUDED.at`,
    [record.mailId, record.attempt, record.outcome, record.smtpCode, record.detail?.slice(0, 500) ?? null, record.durationMs, record.at],
  );
}

/** The mail's state after an attempt (or on going back to the outbox). */
export async function settleMail(
  tx: Queryable,
  mailId: string,
  outcome: { status: MailStatus; lastError: string | null; nextAttemptAt: Date | null; smtpMessageId?: string | null; sentAt?: Date | null },
): Promise<void> {
  await tx.query(
    `UPDATE mail_messages SET status = $2, last_error = $3, next_attempt_at = $4, lease_until = NULL,
       smtp_message_id = COALESCE($5, smtp_message_id), sent_at = COALESCE($6, sent_at)
     WHERE id = $1`,
    [mailId, outcome.status, outcome.lastError?.slice(0, 500) ?? null, outcome.nextAttemptAt, outcome.smtpMessageId ?? null, outcome.sentAt ?? null],
  );
}

/** Every mail waiting for SMTP becomes `queued`: what the caller sends their jobs for, in the same transaction. */
export async function releaseWaitingMails(tx: Queryable): Promise<{ id: string; workspaceId: string }[]> {
  const { rows } = await tx.query<{ id: string; workspace_id: string }>(
    `UPDATE mail_messages SET status = 'queued' WHERE status = 'waiting' RETURNING id, workspace_id`,
  );
  return rows.map((row) => ({ id: row.id, workspaceId: row.workspace_id }));
}

/** Whether a mail of `kind` about the conversation was already sent (or queued) for a message after `afterSeq`, to this operator (or to the visitor). */
export async function mailExistsAfterSeq(
  db: Queryable,
  about: { workspaceId: string; conversationId: string; kind: MailKind; operatorId: string | null; afterSeq: number },
): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM mail_messages
     WHERE workspace_id = $1 AND conversation_id = $2 AND kind = $3 AND about_seq > $4 AND operator_id IS NOT DISTINCT FROM $5 AND status <> 'failed'
     LIMIT 1`,
    [about.workspaceId, about.conversationId, about.kind, about.afterSeq, about.operatorId],
  );
  return rows.length > 0;
}

export async function countWorkspaceMails(db: Queryable, workspaceId: string): Promise<Record<MailStatus, number>> {
  const { rows } = await db.query<{ status: MailStatus; count: string | number }>(
    `SELECT status, count(*) AS count FROM mail_messages WHERE workspace_id = $1 GROUP BY status`,
    [workspaceId],
  );
  const counts: Record<MailStatus, number> = { waiting: 0, queued: 0, sending: 0, retrying: 0, sent: 0, failed: 0 };
  for (const row of rows) counts[row.status] = Number(row.count);
  return counts;
}

interface MailRow {
  id: string;
  kind: MailKind;
  status: MailStatus;
  recipient: string;
  subject: string;
  conversation_id: string | null;
  last_error: string | null;
  next_attempt_at: Date | string | null;
  created_at: Date | string;
  sent_at: Date | string | null;
}

/** The workspace's mails, newest first, each with its attempts (the delivery log). */
export async function listWorkspaceMails(db: Queryable, workspaceId: string, options: { status?: MailStatus | undefined; limit: number }): Promise<MailMessage[]> {
  const { rows } = await db.query<MailRow>(
    `SELECT id, kind, status, recipient, subject, conversation_id, last_error, next_attempt_at, created_at, sent_at
     FROM mail_messages WHERE workspace_id = $1 AND ($2::text IS NULL OR status = $2)
     ORDER BY created_at DESC, id DESC LIMIT $3`,
    [workspaceId, options.status ?? null, options.limit],
  );
  const ids = rows.map((row) => row.id);
  const attempts = new Map<string, MailMessage["attempts"]>();
  if (ids.length > 0) {
    const { rows: attemptRows } = await db.query<{ mail_id: string; attempt: number; outcome: "sent" | "failed" | "refused"; smtp_code: number | null; detail: string | null; duration_ms: number; at: Date | string }>(
      `SELECT mail_id, attempt, outcome, smtp_code, detail, duration_ms, at FROM mail_attempts WHERE mail_id = ANY($1::text[]) ORDER BY mail_id, attempt`,
      [textArray(ids)],
    );
    for (const row of attemptRows) {
      const list = attempts.get(row.mail_id) ?? [];
      list.push({ attempt: row.attempt, outcome: row.outcome, smtp_code: row.smtp_code, detail: row.detail, duration_ms: row.duration_ms, at: iso(row.at) });
      attempts.set(row.mail_id, list);
    }
  }
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    status: row.status,
    to: row.recipient,
    subject: row.subject,
    conversation_id: row.conversation_id,
    attempts: attempts.get(row.id) ?? [],
    last_error: row.last_error,
    next_attempt_at: isoOrNull(row.next_attempt_at),
    created_at: iso(row.created_at),
    sent_at: isoOrNull(row.sent_at),
  }));
}

/** The conversation a reply key's mail is about (a mail to its visitor), or null: no such mail, or erased. */
export async function findMailOfReplyKey(db: Queryable, replyKey: string): Promise<{ workspaceId: string; conversationId: string; visitorId: string; recipient: string } | null> {
  const { rows } = await db.query<{ workspace_id: string; conversation_id: string; visitor_id: string; recipient: string }>(
    `SELECT workspace_id, conversation_id, visitor_id, recipient FROM mail_messages WHERE reply_key = $1 AND conversation_id IS NOT NULL AND visitor_id IS NOT NULL`,
    [replyKey],
  );
  const row = rows[0];
  return row ? { workspaceId: row.workspace_id, conversationId: row.conversation_id, visitorId: row.visitor_id, recipient: row.recipient } : null;
}

/**
 * A mail to a visitor came back as a bounce (a delivery status notification): `failed`, with the
 * report's answer where the delivery log shows a failure. Null when no mail handed to a server has the key (never
 * one, not sent yet, or erased).
 */
export async function markMailBounced(tx: Queryable, replyKey: string, answer: string): Promise<{ mailId: string; workspaceId: string; conversationId: string | null } | null> {
  const { rows } = await tx.query<{ id: string; workspace_id: string; conversation_id: string | null }>(
    `UPDATE mail_messages SET status = 'failed', last_error = $2, next_attempt_at = NULL WHERE reply_key = $1 AND status IN ('sent', 'failed') RETURNING id, workspace_id, conversation_id`,
    [replyKey, answer.slice(0, 500)],
  );
  const row = rows[0];
  return row ? { mailId: row.id, workspaceId: row.workspace_id, conversationId: row.conversation_id } : null;
}

/** Erasure's part: every mail about the visitors or conversations, queued, sent or failed (their attempts go with them). */
export async function deleteMailsAbout(tx: Queryable, workspaceId: string, about: { visitorIds: string[]; conversationIds: string[] }): Promise<number> {
  let deleted = 0;
  if (about.visitorIds.length > 0) {
    const result = await tx.query(`DELETE FROM mail_messages WHERE workspace_id = $1 AND visitor_id = ANY($2::text[]) RETURNING id`, [workspaceId, textArray(about.visitorIds)]);
    deleted += result.rows.length;
  }
  if (about.conversationIds.length > 0) {
    const result = await tx.query(`DELETE FROM mail_messages WHERE workspace_id = $1 AND conversation_id = ANY($2::text[]) RETURNING id`, [workspaceId, textArray(about.conversationIds)]);
    deleted += result.rows.length;
  }
  return deleted;
}
