import { AppError } from "../http/app-error.js";
import type { Services } from "../services.js";
import { findOperator } from "../tenants/operators.js";
import { applyTransition, systemMessages, transitionedEvent } from "./apply-transition.js";
import { lockConversationState, type ConversationState } from "./conversation-state-repository.js";
import type { OperatorActor } from "./operator-actor.js";

/**
 * POST /console/conversations/{id}/assign: `bot` or `awaiting_human` → `human` with an assignee
 * (the operator, or for an admin any operator of the workspace given as `operatorId`), stored with
 * "Ana joined the conversation". Compare-and-set on the row lock: of two operators taking over at
 * once, the second reads `human` and gets 409 `conversation_taken`. Assigning the conversation to
 * its assignee again changes nothing; an admin may hand a taken conversation to another operator;
 * a conversation whose assignee was removed may be taken by anyone.
 */
export async function assignConversation(
  services: Services,
  actor: OperatorActor,
  conversationId: string,
  operatorId: string | undefined,
): Promise<ConversationState> {
  let assignee = { id: actor.id, name: actor.name };
  if (operatorId !== undefined && operatorId !== actor.id) {
    if (actor.role !== "admin") throw new AppError("forbidden", "Only an admin may assign a conversation to another operator.");
    const target = await findOperator(services.db, operatorId);
    if (!target || target.workspaceId !== actor.workspaceId) throw new AppError("operator_not_found", "No operator of this workspace has this id.");
    assignee = { id: target.id, name: target.name };
  }
  const transferring = operatorId !== undefined && operatorId !== actor.id;
  return services.db.transaction(async (tx) => {
    const before = await lockConversationState(tx, actor.workspaceId, conversationId);
    if (!before) throw new AppError("conversation_not_found", "No conversation of this workspace has this id.");
    if (before.status === "closed") throw new AppError("conversation_closed", "The conversation is closed.");
    if (before.status === "human" && before.assignee?.id === assignee.id) return before;
    if (before.status === "human" && before.assignee && !transferring) {
      throw new AppError("conversation_taken", `${before.assignee.name} has already taken this conversation over.`);
    }
    const committed = await applyTransition(
      tx,
      before,
      { status: "human", assignee, humanRequest: { kind: "keep" } },
      systemMessages.joined(assignee),
    );
    await services.events.raise(tx, transitionedEvent(committed));
    return committed.state as ConversationState;
  });
}
