import { findOperatorReadSeq } from "../conversations/conversations.js";
import { findConversationOutline, type ConversationOutline } from "../conversations/visitor-seen.js";
import { listMessagesAfterSeq } from "../conversations/message-listing.js";
import type { Queryable } from "../db/database.js";
import { languagePackFor } from "../language/language-packs.js";
import type { Agent } from "../tenants/agent.js";
import { findAgent } from "../tenants/agents.js";
import { findOperator } from "../tenants/operators.js";
import { findVisitorLead } from "../widget/leads.js";
import type { MailCheck } from "./mail-check-repository.js";
import { consoleConversationUrl, type MailJobContext } from "./mail-job-context.js";
import { findEmailAlertChoice, insertDigestItem } from "./mail-preference-repository.js";
import { mailExistsAfterSeq } from "./mail-repository.js";
import { operatorReplyMail, unseenVisitorMessageMail } from "./mail-texts.js";
import { messageTexts } from "./message-texts.js";
import { queueMail } from "./queue-mail.js";

/** How long the link in a reply mail reopens the conversation. */
export const RESUME_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** The fragment parameter the widget reads the resume token from (never sent to the site's server). */
export const RESUME_FRAGMENT_PARAMETER = "frontdesk_resume";

/**
 * A message someone may have missed, looked at FRONTDESK_EMAIL_UNSEEN_DELAY_SECONDS after it was
 * written (a `mail-check`). `unseen_by_visitor`: an operator's reply the visitor has not seen
 * (see conversations/visitor-seen.ts) goes to the address they left, with a link that reopens the
 * conversation. `unseen_by_operator`: a visitor's message the assignee has not read goes to the assignee, as
 * they chose (every alert or the digest). A burst of messages makes one mail: none is sent when a
 * mail already covers a message after what the recipient has seen.
 */
export async function mailUnseenMessage(context: MailJobContext, check: MailCheck, done: (tx: Queryable) => Promise<void>): Promise<void> {
  const conversation = await findConversationOutline(context.db, check.workspaceId, check.conversationId);
  if (!conversation) return;
  const agent = await findAgent(context.db, conversation.agentId);
  if (!agent) return;
  if (check.kind === "unseen_by_visitor") await mailReplyToVisitor(context, conversation, agent, check.seq, done);
  else await mailMessageToAssignee(context, conversation, agent, check.seq, done);
}

async function unseenMessages(context: MailJobContext, conversation: ConversationOutline, afterSeq: number, role: "operator" | "visitor") {
  const { messages } = await listMessagesAfterSeq(context.db, { workspaceId: conversation.workspaceId, conversationId: conversation.id, afterSeq, limit: 100 });
  return messages.filter((message) => message.role === role && message.seq !== null);
}

async function mailReplyToVisitor(context: MailJobContext, conversation: ConversationOutline, agent: Agent, seq: number, done: (tx: Queryable) => Promise<void>): Promise<void> {
  const seen = conversation.visitorSeenSeq;
  if (seen >= seq) return;
  const lead = await findVisitorLead(context.db, conversation.visitorId);
  if (!lead) return;
  const about = { workspaceId: conversation.workspaceId, conversationId: conversation.id, kind: "visitor_reply" as const, operatorId: null, afterSeq: seen };
  if (await mailExistsAfterSeq(context.db, about)) return;
  const replies = await unseenMessages(context, conversation, seen, "operator");
  const last = replies.at(-1);
  if (!last) return;
  const token = context.resumeTokens.issue({ conversationId: conversation.id, visitorId: conversation.visitorId, agentId: agent.id }, RESUME_LINK_TTL_MS);
  const content = operatorReplyMail(languagePackFor(agent.languageDefault), {
    agentName: agent.name,
    operatorName: last.author?.name ?? agent.name,
    replies: await messageTexts(context.db, conversation.id, replies),
    resumeUrl: resumeUrlOf(conversation.lastPageUrl ?? agent.allowedOrigins[0] ?? null, token),
  });
  await context.db.transaction(async (tx) => {
    await done(tx);
    await queueMail(tx, context.jobs, context.settings, {
      workspaceId: conversation.workspaceId,
      kind: "visitor_reply",
      to: { address: lead.email, name: lead.name ?? null },
      content,
      visitorId: conversation.visitorId,
      conversationId: conversation.id,
      aboutSeq: last.seq,
    });
  });
}

/** The site's page with the token in its fragment, or null when the page is not a web address. */
export function resumeUrlOf(page: string | null, token: string): string | null {
  if (page === null) return null;
  try {
    const url = new URL(page);
    if (url.protocol !== "https:" && url.protocol !== "http:") return null;
    url.hash = `${RESUME_FRAGMENT_PARAMETER}=${token}`;
    return url.toString();
  } catch {
    return null;
  }
}

async function mailMessageToAssignee(context: MailJobContext, conversation: ConversationOutline, agent: Agent, seq: number, done: (tx: Queryable) => Promise<void>): Promise<void> {
  if (conversation.status !== "human" || conversation.assigneeId === null) return;
  const operatorId = conversation.assigneeId;
  const readSeq = await findOperatorReadSeq(context.db, operatorId, conversation.id);
  if (readSeq >= seq) return;
  const choice = await findEmailAlertChoice(context.db, operatorId);
  if (choice === "none") return;
  const about = { workspaceId: conversation.workspaceId, conversationId: conversation.id, kind: "operator_unseen" as const, operatorId, afterSeq: readSeq };
  if (await mailExistsAfterSeq(context.db, about)) return;
  const operator = await findOperator(context.db, operatorId);
  if (!operator || operator.workspaceId !== conversation.workspaceId) return;
  const unread = await unseenMessages(context, conversation, readSeq, "visitor");
  const last = unread.at(-1);
  if (!last) return;
  const pack = languagePackFor(agent.languageDefault);
  const link = consoleConversationUrl(context.publicUrl, conversation.id);
  const messages = await messageTexts(context.db, conversation.id, unread);
  await context.db.transaction(async (tx) => {
    await done(tx);
    if (choice === "digest") {
      await insertDigestItem(tx, {
        workspaceId: conversation.workspaceId,
        operatorId,
        conversationId: conversation.id,
        visitorId: conversation.visitorId,
        kind: "operator_unseen",
        summary: pack.mail.unseenVisitorMessageIntro(agent.name),
        pageUrl: conversation.lastPageUrl,
      });
      return;
    }
    await queueMail(tx, context.jobs, context.settings, {
      workspaceId: conversation.workspaceId,
      kind: "operator_unseen",
      to: { address: operator.email, name: operator.name },
      content: unseenVisitorMessageMail(pack, { agentName: agent.name, messages, pageUrl: conversation.lastPageUrl, link }),
      operatorId,
      visitorId: conversation.visitorId,
      conversationId: conversation.id,
      aboutSeq: last.seq,
    });
  });
}
