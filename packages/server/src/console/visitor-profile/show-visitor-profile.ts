import { VISITOR_HISTORY_MAX, type VisitorProfile } from "@frontdesk/contracts";
import { findConversationVisitor, listVisitorAnswerRatings, listVisitorConversationSummaries } from "../../conversations/conversations.js";
import type { Services } from "../../services.js";
import { listLeadsToExport } from "../../widget/leads.js";
import type { SignedInOperator } from "../authenticate-operator.js";
import { conversationNotFound } from "../show-conversation.js";
import { readBrowser } from "./read-browser.js";

/**
 * GET /console/conversations/{id}/visitor: the conversation's visitor as the console shows them
 * beside it: browser and device, time zone and language, this conversation's pages, their
 * conversations, leads and ratings. Every read names the operator's workspace: another
 * workspace's conversation (and so its visitor) is 404.
 */
export async function showVisitorProfile(services: Services, operator: SignedInOperator, conversationId: string): Promise<VisitorProfile> {
  const visitor = await findConversationVisitor(services.db, operator.workspaceId, conversationId);
  if (!visitor) throw conversationNotFound();
  const scope = { workspaceId: operator.workspaceId, visitorId: visitor.visitorId, limit: VISITOR_HISTORY_MAX };
  const [conversations, answers] = await Promise.all([listVisitorConversationSummaries(services.db, scope), listVisitorAnswerRatings(services.db, scope)]);
  const leads = await listLeadsToExport(services.db, {
    workspaceId: operator.workspaceId,
    agentId: visitor.agentId,
    visitorId: visitor.visitorId,
    conversationIds: conversations.map((conversation) => conversation.id),
  });
  return {
    visitor_id: visitor.visitorId,
    anon_id: visitor.anonId,
    first_seen_at: visitor.firstSeenAt,
    last_seen_at: visitor.lastSeenAt,
    browser: visitor.userAgent ? readBrowser(visitor.userAgent) : null,
    time_zone: visitor.timeZone,
    language: visitor.language,
    pages: visitor.pages,
    conversations: conversations.map((conversation) => ({
      id: conversation.id,
      status: conversation.status,
      current: conversation.id === visitor.conversationId,
      first_message: conversation.firstMessage,
      created_at: conversation.createdAt,
      last_activity_at: conversation.lastActivityAt,
    })),
    leads,
    ratings: {
      satisfaction: conversations.flatMap((conversation) =>
        conversation.satisfaction
          ? [{ conversation_id: conversation.id, rating: conversation.satisfaction.rating, comment: conversation.satisfaction.comment, rated_at: conversation.satisfaction.ratedAt }]
          : [],
      ),
      answers: answers.map((answer) => ({
        message_id: answer.messageId,
        conversation_id: answer.conversationId,
        rating: answer.rating,
        comment: answer.comment,
        excerpt: answer.excerpt,
        rated_at: answer.ratedAt,
      })),
    },
  };
}
