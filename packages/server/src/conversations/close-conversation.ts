import { AppError } from "../http/app-error.js";
import type { Services } from "../services.js";
import { applyTransition, systemMessages, transitionedEvent } from "./apply-transition.js";
import { lockConversationState, type ConversationState } from "./conversation-state-repository.js";

/**
 * Closes the conversation from any open state ("Conversation closed"), by an operator of its
 * workspace or by its visitor. The assignee is kept (who handled it), the human request cleared.
 * Closing a closed conversation changes nothing and stores nothing. `conversation.closed` is raised
 * with the close. A visitor message reopens it in `bot`.
 */
export async function closeConversation(
  services: Services,
  input: { workspaceId: string; conversationId: string; by: "operator" | "visitor" },
): Promise<ConversationState> {
  return services.db.transaction(async (tx) => {
    const before = await lockConversationState(tx, input.workspaceId, input.conversationId);
    if (!before) throw new AppError("conversation_not_found", "No conversation of this workspace has this id.");
    if (before.status === "closed") return before;
    const committed = await applyTransition(
      tx,
      before,
      { status: "closed", assignee: before.assignee, humanRequest: { kind: "clear" }, closedBy: input.by },
      systemMessages.closed,
    );
    const closed = committed.state;
    await services.events.raise(tx, transitionedEvent(committed));
    await services.events.raise(tx, {
      type: "conversation.closed",
      conversation: { workspaceId: closed.workspaceId, agentId: closed.agentId, conversationId: closed.id, visitorId: closed.visitorId },
      assignee: closed.assignee,
      closedAt: committed.systemMessage.createdAt,
    });
    return committed.state as ConversationState;
  });
}
