import { AppError } from "../http/app-error.js";
import type { Services } from "../services.js";
import { applyTransition, systemMessages, transitionedEvent } from "./apply-transition.js";
import { lockConversationState, type ConversationState } from "./conversation-state-repository.js";
import type { OperatorActor } from "./operator-actor.js";

/**
 * POST /console/conversations/{id}/release: `human` → `bot` ("The assistant is back"): the bot
 * answers again, the assignee and the human request are cleared. The assignee or an admin may
 * release (anyone, when the assignee was removed); another agent gets 409 `not_assignee`; a
 * conversation no operator has taken over is 409 `invalid_transition`.
 */
export async function releaseConversation(services: Services, actor: OperatorActor, conversationId: string): Promise<ConversationState> {
  const committed = await services.db.transaction(async (tx) => {
    const before = await lockConversationState(tx, actor.workspaceId, conversationId);
    if (!before) throw new AppError("conversation_not_found", "No conversation of this workspace has this id.");
    if (before.status !== "human") {
      throw new AppError("invalid_transition", `The conversation is ${before.status}: only a conversation an operator took over can be released.`);
    }
    if (before.assignee && before.assignee.id !== actor.id && actor.role !== "admin") {
      throw new AppError("not_assignee", `${before.assignee.name} has this conversation: only they or an admin may release it.`);
    }
    const released = await applyTransition(tx, before, { status: "bot", assignee: null, humanRequest: { kind: "clear" } }, systemMessages.released);
    await services.events.raise(tx, transitionedEvent(released));
    return released;
  });
  return committed.state;
}
