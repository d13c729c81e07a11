import { isMailAddress, type MailConfig, type Mailbox } from "../config/mail.js";
import type { Queryable } from "../db/database.js";
import type { JobQueue } from "../jobs/job-queue.js";
import { headerText, renderMail, type MailContent } from "./mail-content.js";
import { insertMail, type MailKind } from "./mail-repository.js";
import { newReplyKey } from "./reply-key.js";

/** A mail to queue: whom to, what it says, and what it is about. */
export interface MailDraft {
  workspaceId: string;
  kind: MailKind;
  to: Mailbox;
  content: MailContent;
  operatorId?: string | null;
  visitorId?: string | null;
  conversationId?: string | null;
  /** The message a mail about an unseen message is for. */
  aboutSeq?: number | null;
}

/**
 * Queues a mail in the caller's transaction: its rendered parts and recipient in `mail_messages`
 * and, when SMTP is configured, a `send-mail` job naming it; without SMTP it waits (`waiting`) and
 * goes out when a worker starts with SMTP set (release-waiting-mails.ts). Nothing is sent here.
 * Null (nothing queued) for an address we do not send to: a display name cannot carry a header
 * either, its control characters are spaces by now.
 */
export async function queueMail(tx: Queryable, jobs: JobQueue, config: MailConfig, draft: MailDraft): Promise<{ id: string; status: "queued" | "waiting" } | null> {
  if (!isMailAddress(draft.to.address)) return null;
  const rendered = renderMail(draft.content);
  const status = config.smtpUrl === null ? "waiting" : "queued";
  const id = await insertMail(tx, {
    workspaceId: draft.workspaceId,
    kind: draft.kind,
    recipient: draft.to.address,
    recipientName: draft.to.name === null ? null : headerText(draft.to.name, 100) || null,
    operatorId: draft.operatorId ?? null,
    visitorId: draft.visitorId ?? null,
    conversationId: draft.conversationId ?? null,
    aboutSeq: draft.aboutSeq ?? null,
    language: draft.content.language,
    subject: rendered.subject,
    text: rendered.text,
    html: rendered.html,
    status,
    // A visitor may answer a mail about their conversation: the key their reply names it by.
    replyKey: draft.visitorId && draft.conversationId && (draft.kind === "visitor_reply" || draft.kind === "transcript") ? newReplyKey() : null,
  });
  if (status === "queued") await jobs.send("send-mail", { mailId: id, workspaceId: draft.workspaceId, attempt: 1 }, tx);
  return { id, status };
}
