import type { MailConfig } from "../config/mail.js";
import type { Database } from "../db/database.js";
import type { JobPayload } from "../jobs/job-catalog.js";
import type { JobQueue } from "../jobs/job-queue.js";
import { insertMailAttempt, lockMail, settleMail, startMailAttempt } from "./mail-repository.js";
import type { MailTransport } from "./mail-transport.js";

/** What a mail worker works with. `transport` is null without SMTP. */
export interface MailSendingContext {
  db: Database;
  jobs: JobQueue;
  transport: MailTransport | null;
  settings: MailConfig;
  now: () => Date;
}

/** The wait before attempt `attempt + 1`: the base, doubled after each attempt (1, 2, 4, 8, 16 min by default). */
export const mailRetryDelayMs = (settings: MailConfig, attempt: number) => settings.retryBaseMs * 2 ** (attempt - 1);

/**
 * One attempt to send one mail (the `send-mail` job): claim it in a short transaction (locked:
 * still to send, not under way elsewhere; `sending` on a lease of three timeouts), send it, then in
 * one transaction record the attempt and either mark it `sent`, `failed` (a 5xx refusal, or the last
 * attempt), or `retrying` with the next attempt's job at its time. A mail erased meanwhile (its row
 * gone) ends quietly. Without SMTP the mail goes back to the outbox (`waiting`).
 */
export async function sendMail(context: MailSendingContext, payload: JobPayload<"send-mail">): Promise<void> {
  const { db, settings } = context;
  const claimed = await db.transaction(async (tx) => {
    const mail = await lockMail(tx, payload.workspaceId, payload.mailId);
    if (!mail) return null;
    const now = context.now();
    const underWayElsewhere = mail.status === "sending" && mail.leaseUntil !== null && mail.leaseUntil > now;
    const stale = mail.attempts >= payload.attempt && mail.status !== "sending";
    if (mail.status === "sent" || mail.status === "failed" || mail.status === "waiting" || underWayElsewhere || stale) return null;
    if (!context.transport) {
      await settleMail(tx, mail.id, { status: "waiting", lastError: null, nextAttemptAt: null });
      return null;
    }
    await startMailAttempt(tx, mail.id, payload.attempt, new Date(now.getTime() + 3 * settings.timeoutMs + 5_000));
    return mail;
  });
  if (!claimed || !context.transport) return;
  const outcome = await context.transport.send({
    to: { address: claimed.recipient, name: claimed.recipientName },
    subject: claimed.subject,
    text: claimed.text,
    html: claimed.html,
    language: claimed.language,
    replyKey: claimed.replyKey,
  });
  await db.transaction(async (tx) => {
    const mail = await lockMail(tx, payload.workspaceId, payload.mailId);
    if (!mail) return;
    const at = context.now();
    if (outcome.ok) {
      await insertMailAttempt(tx, { mailId: mail.id, attempt: payload.attempt, outcome: "sent", smtpCode: 250, detail: outcome.response, durationMs: outcome.durationMs, at });
      await settleMail(tx, mail.id, { status: "sent", lastError: null, nextAttemptAt: null, smtpMessageId: outcome.messageId, sentAt: at });
      return;
    }
    await insertMailAttempt(tx, {
      mailId: mail.id,
      attempt: payload.attempt,
      outcome: outcome.permanent ? "refused" : "failed",
      smtpCode: outcome.code,
      detail: outcome.detail,
      durationMs: outcome.durationMs,
      at,
    });
    if (outcome.permanent || payload.attempt >= settings.attempts) {
      const why = outcome.permanent ? `refused by the SMTP server: ${outcome.detail}` : `every attempt failed (${payload.attempt}); the last: ${outcome.detail}`;
      await settleMail(tx, mail.id, { status: "failed", lastError: why, nextAttemptAt: null });
      return;
    }
    const next = new Date(at.getTime() + mailRetryDelayMs(settings, payload.attempt));
    await settleMail(tx, mail.id, { status: "retrying", lastError: outcome.detail, nextAttemptAt: next });
    await context.jobs.send("send-mail", { ...payload, attempt: payload.attempt + 1 }, tx, { startAfter: next });
  });
}
