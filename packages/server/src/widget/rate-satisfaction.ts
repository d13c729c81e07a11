import type { Services } from "../services.js";
import type { WidgetSession } from "./authenticate-session.js";
import { rateConversation, sessionEnded } from "../conversations/conversations.js";

/** POST /satisfaction: the visitor's CSAT rating; the latest one wins. `satisfaction.rated` is raised with it (no live channel carries ratings). */
export async function rateSatisfaction(
  services: Services,
  session: WidgetSession,
  input: { rating: "good" | "bad"; comment: string | null },
) {
  const conversation = await services.db.transaction(async (tx) => {
    const rated = await rateConversation(tx, session.conversation.id, input.rating, input.comment);
    if (!rated) throw sessionEnded();
    const satisfaction = rated.satisfaction!;
    const { workspaceId, agentId, id: conversationId, visitorId } = session.conversation;
    await services.events.raise(tx, {
      type: "satisfaction.rated",
      conversation: { workspaceId, agentId, conversationId, visitorId },
      rating: satisfaction.rating,
      comment: satisfaction.comment,
      ratedAt: satisfaction.ratedAt,
    });
    return rated;
  });
  const comment = conversation.satisfaction?.comment ?? null;
  return { conversation_id: conversation.id, rating: input.rating, comment };
}
