import { notifyWorkspaceOperators } from "../inbox/inbox-repository.js";
import type { Services } from "../services.js";
import type { WidgetSession } from "./authenticate-session.js";
import { markHumanRequested } from "./conversation-repository.js";

/**
 * POST /request-human: pauses the bot, stamps `human_requested_at` (the first time is kept) and,
 * on the first request only, puts a notification in every operator's inbox and tells operators live.
 */
export async function requestHuman(services: Services, session: WidgetSession, reason: string | null) {
  const { conversation } = session;
  const result = await services.db.transaction(async (tx) => {
    const marked = await markHumanRequested(tx, conversation.id, reason);
    if (marked.first) {
      await notifyWorkspaceOperators(tx, {
        workspaceId: conversation.workspaceId,
        kind: "human_requested",
        conversationId: conversation.id,
        payload: { agent_id: conversation.agentId, visitor_id: conversation.visitorId, reason },
      });
    }
    return marked;
  });
  services.sessionCache.forget(conversation.id);
  const requestedAt = result.conversation.humanRequestedAt!;
  if (result.first) {
    services.bus.publish({
      type: "human.requested",
      workspaceId: conversation.workspaceId,
      agentId: conversation.agentId,
      conversationId: conversation.id,
      seq: result.conversation.updatedSeq ?? 0,
      reason: result.conversation.humanRequestReason,
      requestedAt,
    });
  }
  return { conversation_id: conversation.id, human_requested_at: requestedAt, reason: result.conversation.humanRequestReason };
}
