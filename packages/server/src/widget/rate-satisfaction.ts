import type { Services } from "../services.js";
import type { WidgetSession } from "./authenticate-session.js";
import { rateConversation } from "./conversation-repository.js";

/** POST /satisfaction: the visitor's CSAT rating; the latest one wins. */
export async function rateSatisfaction(
  services: Services,
  session: WidgetSession,
  input: { rating: "good" | "bad"; comment: string | null },
) {
  const conversation = await rateConversation(services.db, session.conversation.id, input.rating, input.comment);
  return { conversation_id: conversation.id, rating: input.rating, comment: conversation.satisfaction?.comment ?? null };
}
