import type { z } from "zod";
import type { conversationDetailSchema } from "@frontdesk/contracts";
import { AppError } from "../http/app-error.js";
import type { Services } from "../services.js";
import { findVisitorLead } from "../widget/leads.js";
import type { SignedInOperator } from "./authenticate-operator.js";
import { findConsoleConversation, listLatestConsoleMessages } from "../conversations/conversations.js";
import { listConversationNotes } from "../notes/notes.js";
import { CONVERSATION_NOTES_MAX } from "@frontdesk/contracts";
import { labelsOfConversations } from "../conversations/conversation-labels.js";
import { withAttachments } from "../attachments/attachments.js";

/** The detail's messages: the latest ones; earlier ones are read forwards with GET …/messages?after_seq. */
export const DETAIL_MESSAGE_COUNT = 100;

export const conversationNotFound = () => new AppError("conversation_not_found", "No conversation with this id in your workspace.");

/**
 * GET /console/conversations/{id}: the conversation with its visitor (pages, browser, lead), its
 * satisfaction and coupon, the operator's read marker and its latest messages. Reading changes
 * nothing: the console marks it read with POST …/read.
 */
export async function showConversation(
  services: Services,
  operator: SignedInOperator,
  conversationId: string,
): Promise<z.infer<typeof conversationDetailSchema>> {
  const conversation = await findConsoleConversation(services.db, operator.workspaceId, operator.id, conversationId);
  if (!conversation) throw conversationNotFound();
  const [lead, { messages, hasEarlier }, notes, labels] = await Promise.all([
    findVisitorLead(services.db, conversation.visitorId),
    listLatestConsoleMessages(services.db, conversation.id, DETAIL_MESSAGE_COUNT),
    listConversationNotes(services.db, operator.workspaceId, conversation.id, CONVERSATION_NOTES_MAX),
    labelsOfConversations(services.db, operator.workspaceId, [conversation.id]),
  ]);
  return {
    id: conversation.id,
    agent_id: conversation.agentId,
    status: conversation.status,
    assignee: conversation.assignee,
    human_requested_at: conversation.humanRequestedAt,
    human_request_reason: conversation.humanRequestReason,
    snooze: conversation.snooze,
    seq: conversation.seq,
    visitor: {
      id: conversation.visitorId,
      anon_id: conversation.anonId,
      identity: conversation.identity,
      first_page_url: conversation.firstPageUrl,
      last_page_url: conversation.lastPageUrl,
      user_agent: conversation.userAgent,
      lead,
    },
    satisfaction: conversation.satisfaction,
    coupon: conversation.coupon,
    labels: labels.get(conversation.id) ?? [],
    unread_count: conversation.unreadCount,
    last_read_seq: conversation.lastReadSeq,
    messages: await withAttachments(services, conversation.id, messages, "console"),
    has_earlier_messages: hasEarlier,
    notes,
    created_at: conversation.createdAt,
    last_activity_at: conversation.lastActivityAt,
  };
}
