import type { FastifyBaseLogger } from "fastify";
import type { Counter } from "prom-client";
import { receiveVisitorEmailReply } from "../conversations/receive-visitor-email-reply.js";
import type { Services } from "../services.js";
import { findVisitorLead } from "../widget/leads.js";
import { bounceAnswerOf, type DeliveryReport } from "./delivery-report.js";
import type { InboundMail } from "./inbound-mail.js";
import { insertInboundReceipt } from "./inbound-mail-repository.js";
import type { InboundOutcome } from "./inbound-mail-metrics.js";
import { findMailOfReplyKey, markMailBounced } from "./mail-repository.js";
import { replyKeyOfAddress, replyKeysInReferences } from "./reply-key.js";
import { replyTextOf } from "./reply-text.js";

/** What an inbound mail's receiver works with. */
export interface InboundMailContext {
  services: Services;
  logger: Pick<FastifyBaseLogger, "info" | "warn">;
  metrics: Counter<"channel" | "outcome">;
}

/** What became of one inbound mail; `conversationId` when it was matched to one. */
export interface InboundResult {
  outcome: InboundOutcome;
  conversationId: string | null;
}

/** The mail to a visitor this one answers: by the reply key of the address it was sent to, else by the Message-IDs it refers to. */
async function repliedMailOf(services: Services, mail: InboundMail) {
  const keys = [...mail.recipients.map(replyKeyOfAddress).filter((key): key is string => key !== null), ...replyKeysInReferences(mail.references)];
  for (const key of new Set(keys)) {
    const found = await findMailOfReplyKey(services.db, key);
    if (found) return found;
  }
  return null;
}

/**
 * A delivery status notification never enters a conversation. One saying a recipient `failed` marks
 * our mail it returns (the first of its reply keys that names one) `failed`, the report's status and
 * diagnostic as the answer the delivery log shows; any other (`delayed`, `delivered`) is automatic.
 */
async function settleDeliveryReport(services: Services, report: DeliveryReport): Promise<{ outcome: "bounce" | "automatic" | "unmatched"; mailId: string | null; conversationId: string | null }> {
  for (const key of report.replyKeys) {
    if (!report.failed) {
      const mail = await findMailOfReplyKey(services.db, key);
      if (mail) return { outcome: "automatic", mailId: null, conversationId: mail.conversationId };
      continue;
    }
    const bounced = await markMailBounced(services.db, key, bounceAnswerOf(report));
    if (bounced) return { outcome: "bounce", mailId: bounced.mailId, conversationId: bounced.conversationId };
  }
  return { outcome: "unmatched", mailId: null, conversationId: null };
}

/**
 * One inbound mail, whatever brought it: matched to the mail to a visitor it answers (reply key in
 * the recipient's sub-address, or our Message-ID in In-Reply-To/References), its sender checked
 * against that visitor (the address the mail went to, or their lead's e-mail, case-insensitive),
 * its words extracted (reply-text.ts) and stored in the conversation once (receipt by Message-ID).
 * A mail that is not a reply, is from someone else, is automatic (an out-of-office) or says nothing
 * is dropped: logged with its reason (never its words or addresses) and counted, nothing else.
 * A bounce (a delivery status notification) is settled first, and never reaches a conversation.
 */
export async function receiveInboundMail(context: InboundMailContext, mail: InboundMail): Promise<InboundResult> {
  const { services } = context;
  const settle = (outcome: InboundOutcome, conversationId: string | null, detail: Record<string, unknown> = {}): InboundResult => {
    context.metrics.inc({ channel: mail.channel, outcome });
    const entry = { channel: mail.channel, outcome, conversationId, messageId: mail.messageId?.slice(0, 200) ?? null, attachments: mail.attachments, ...detail };
    if (outcome === "stored") context.logger.info(entry, "reply by e-mail stored in its conversation");
    else if (outcome === "bounce") context.logger.info(entry, "bounce recorded: the mail is failed");
    else context.logger.warn(entry, `inbound mail dropped: ${outcome.replace(/_/g, " ")}`);
    return { outcome, conversationId };
  };
  if (mail.deliveryReport) {
    const report = await settleDeliveryReport(services, mail.deliveryReport);
    return settle(report.outcome, report.conversationId, { deliveryReport: true, mailId: report.mailId });
  }
  const replied = await repliedMailOf(services, mail);
  if (!replied) return settle("unmatched", null);
  if (mail.automatic) return settle("automatic", replied.conversationId);
  const lead = await findVisitorLead(services.db, replied.visitorId);
  const visitorAddresses = [replied.recipient, lead?.email ?? ""].map((address) => address.toLowerCase()).filter(Boolean);
  if (mail.from === null || !visitorAddresses.includes(mail.from)) return settle("wrong_sender", replied.conversationId);
  const content = replyTextOf(mail.text);
  if (content === "") return settle("empty", replied.conversationId);
  const outcome = await receiveVisitorEmailReply(
    services,
    { workspaceId: replied.workspaceId, conversationId: replied.conversationId, visitorId: replied.visitorId, content },
    (tx) =>
      insertInboundReceipt(tx, {
        inboundKey: mail.inboundKey,
        workspaceId: replied.workspaceId,
        conversationId: replied.conversationId,
        visitorId: replied.visitorId,
        messageId: mail.messageId ?? "",
        channel: mail.channel,
      }),
  );
  if (!outcome.stored) return settle(outcome.reason, replied.conversationId);
  return settle("stored", replied.conversationId, { seq: outcome.seq, status: outcome.status, characters: content.length });
}
