import type { Services } from "../services.js";
import type { WidgetSession } from "./authenticate-session.js";
import { rateConversation } from "./conversation-repository.js";

/** POST /satisfaction: the visitor's CSAT rating; the latest one wins. Announced after it is stored (`satisfaction.rated`, for webhooks). */
export async function rateSatisfaction(
  services: Services,
  session: WidgetSession,
  input: { rating: "good" | "bad"; comment: string | null },
) {
  const conversation = await rateConversation(services.db, session.conversation.id, input.rating, input.comment);
  const comment = conversation.satisfaction?.comment ?? null;
  services.bus.publish({
    type: "satisfaction.rated",
    workspaceId: session.conversation.workspaceId,
    agentId: session.conversation.agentId,
    conversationId: conversation.id,
    rating: input.rating,
    comment,
    at: conversation.satisfaction?.ratedAt ?? services.now().toISOString(),
  });
  return { conversation_id: conversation.id, rating: input.rating, comment };
}
