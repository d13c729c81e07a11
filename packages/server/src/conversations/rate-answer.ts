import type { AnswerFeedbackBody } from "@frontdesk/contracts";
import { AppError } from "../http/app-error.js";
import type { Services } from "../services.js";
import type { WidgetSession } from "../widget/authenticate-session.js";
import { rateBotMessage } from "./answer-rating-repository.js";

/**
 * POST /widget/messages/{message_id}/feedback: the visitor rates one bot answer of their own
 * conversation (👍/👎, an optional comment); a repeat replaces the rating. Any other message, or
 * one of another conversation, is `message_not_found`, whichever it is. `message.rated` is raised
 * in the transaction (its webhook commits with the rating).
 */
export async function rateAnswer(services: Services, session: WidgetSession, messageId: string, body: AnswerFeedbackBody) {
  const { workspaceId, agentId, id: conversationId, visitorId } = session.conversation;
  const rated = await services.db.transaction(async (tx) => {
    const stored = await rateBotMessage(tx, { conversationId, messageId, rating: body.rating, comment: body.comment ?? null });
    if (!stored) throw new AppError("message_not_found", `No answer ${messageId} in this conversation.`);
    await services.events.raise(tx, {
      type: "message.rated",
      conversation: { workspaceId, agentId, conversationId, visitorId },
      messageId: stored.messageId,
      rating: stored.rating,
      comment: stored.comment,
      ratedAt: stored.ratedAt,
    });
    return stored;
  });
  return { message_id: rated.messageId, conversation_id: rated.conversationId, rating: rated.rating, comment: rated.comment, rated_at: rated.ratedAt };
}
