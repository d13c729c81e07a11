import type { ErasureCounts } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { forgetVisitorIdempotencyKeys } from "../answering/idempotency-keys.js";
import { deleteVisitorAnswerTests } from "../answer-tests/answer-tests.js";
import { forgetVisitorQuestions } from "../console/curated/forget-visitor-questions.js";
import {
  deleteVisitor,
  deleteVisitorConversations,
  deleteVisitorMessages,
  deleteVisitorReadMarks,
  listVisitorQuestions,
  lockVisitorConversations,
  type VisitorOfWorkspace,
} from "../conversations/visitor-data.js";
import { deleteNotificationsOfConversations } from "../inbox/notifications.js";
import { deleteNotesOfConversations } from "../notes/notes.js";
import { forgetWebhookEventsAbout } from "../webhooks/forget-webhook-events.js";
import { forgetVisitorMails } from "../mail/mails.js";
import { deleteEventsOfConversations, deleteEventsOfVisitors } from "../widget/events.js";
import { deleteLeadsOfConversations, deleteLeadsOfVisitors } from "../widget/leads.js";
import type { DeletedConversation } from "./announce-deleted-conversations.js";
import { deleteAttachmentsOfConversations } from "../attachments/attachments.js";

/**
 * Deletes everything of one visitor with one agent, each table through its owner: their
 * conversations with all they hold (messages, inbox notifications, operators' read marks,
 * satisfaction, coupon, pages, browser, the ratings of the bot's answers, operators' notes), their widget events, their leads, the visitor, the webhook
 * events about them (and what receivers answered to them), and curated questions that are still
 * their words, answer tests whose question is their message, the mails to or about them, the
 * keys their messages were sent with, and the attachments of their conversations (bytes and all). Runs in the caller's transaction, after lockVisitorOfWorkspace, and locks the
 * visitor's conversations before anything under them (conversations/visitor-lock.ts). Each statement
 * reaches its rows through an index (migration 0015 adds the missing ones).
 * `webhookAttemptsUnderWay`: to wait for after the commit (waitForAttemptsToStop).
 */
export async function deleteVisitorData(
  tx: Queryable,
  visitor: VisitorOfWorkspace,
): Promise<{ counts: ErasureCounts; conversations: DeletedConversation[]; webhookAttemptsUnderWay: string[] }> {
  const { workspaceId } = visitor;
  const locked = await lockVisitorConversations(tx, visitor);
  const webhookAttemptsUnderWay = await forgetWebhookEventsAbout(tx, workspaceId, { visitorIds: [visitor.id], conversationIds: locked });
  await forgetVisitorMails(tx, workspaceId, { visitorIds: [visitor.id], conversationIds: locked });
  await forgetVisitorQuestions(tx, { workspaceId, agentId: visitor.agentId, questions: await listVisitorQuestions(tx, visitor) });
  await forgetVisitorIdempotencyKeys(tx, workspaceId, visitor.id);
  await deleteVisitorAnswerTests(tx, workspaceId, visitor.id);
  // Their files (and the operators' files sent to them) before the messages they were sent with.
  await deleteAttachmentsOfConversations(tx, workspaceId, locked);
  const messages = await deleteVisitorMessages(tx, visitor);
  const notifications = await deleteNotificationsOfConversations(tx, workspaceId, locked);
  await deleteNotesOfConversations(tx, workspaceId, locked);
  await deleteVisitorReadMarks(tx, visitor);
  // By visitor, then by conversation: two statements, each on its own index (an OR would read the agent's whole history).
  const events = (await deleteEventsOfVisitors(tx, workspaceId, [visitor.id])) + (await deleteEventsOfConversations(tx, workspaceId, locked));
  const leads = (await deleteLeadsOfVisitors(tx, workspaceId, [visitor.id])) + (await deleteLeadsOfConversations(tx, workspaceId, locked));
  const removed = await deleteVisitorConversations(tx, visitor);
  const visitors = await deleteVisitor(tx, visitor);
  if (removed.length !== locked.length) throw new Error("erasure: the visitor's conversations changed while locked");
  return {
    counts: {
      visitors,
      conversations: removed.length,
      messages: messages.messages,
      leads,
      events,
      satisfaction_ratings: removed.filter((row) => row.rated).length,
      answer_ratings: messages.answerRatings,
      coupons: removed.filter((row) => row.couponed).length,
      notifications,
    },
    conversations: removed.map((row) => ({ id: row.id, workspaceId, agentId: visitor.agentId })),
    webhookAttemptsUnderWay,
  };
}
