import { AppError } from "../http/app-error.js";
import type { Services } from "../services.js";
import { findConversationState } from "./conversation-state-repository.js";
import type { OperatorActor } from "./operator-actor.js";

/**
 * POST /console/conversations/{id}/typing: the visitor sees the assignee typing (`typing` with
 * role `operator` and their name on the conversation's channel). Only the assignee of a `human`
 * conversation types to the visitor (409 `not_assignee` otherwise).
 */
export async function signalOperatorTyping(services: Services, actor: OperatorActor, conversationId: string, typing: boolean): Promise<void> {
  const state = await findConversationState(services.db, actor.workspaceId, conversationId);
  if (!state) throw new AppError("conversation_not_found", "No conversation of this workspace has this id.");
  if (state.status !== "human" || state.assignee?.id !== actor.id) {
    throw new AppError("not_assignee", "Only the assignee of a conversation taken over types to its visitor.");
  }
  services.bus.publish({
    type: "operator.typing",
    workspaceId: state.workspaceId,
    agentId: state.agentId,
    conversationId,
    typing,
    operator: { id: actor.id, name: actor.name },
  });
}
