import type { Queryable } from "../db/database.js";
import { notifyWorkspaceOperators } from "../inbox/notifications.js";
import type { Services } from "../services.js";
import { applyTransition, systemMessageOfEvent, systemMessages, type CommittedTransition } from "./apply-transition.js";
import type { ConversationState } from "./conversation-state-repository.js";

/**
 * In the caller's transaction, on a conversation it locked in `bot` or `closed`: `awaiting_human`
 * with the request stamped now, every operator of the workspace notified in the inbox, and
 * `human.requested` raised with all of it. The visitor's "talk to a person" (request-human.ts) and
 * a reply by e-mail (receive-visitor-email-reply.ts) both come through here.
 */
export async function handToAPerson(
  services: Services,
  tx: Queryable,
  before: ConversationState,
  request: { reason: string | null; outsideHours: boolean },
): Promise<CommittedTransition> {
  const committed = await applyTransition(tx, before, { status: "awaiting_human", assignee: null, humanRequest: { kind: "stamp", reason: request.reason } }, systemMessages.humanRequested);
  const requested = committed.state;
  const notifications = await notifyWorkspaceOperators(tx, {
    workspaceId: requested.workspaceId,
    kind: "human_requested",
    conversationId: requested.id,
    payload: { agent_id: requested.agentId, visitor_id: requested.visitorId, reason: request.reason, ...(request.outsideHours ? { outside_hours: true } : {}) },
  });
  await services.events.raise(tx, {
    type: "human.requested",
    conversation: { workspaceId: requested.workspaceId, agentId: requested.agentId, conversationId: requested.id, visitorId: requested.visitorId },
    seq: requested.updatedSeq,
    reason: requested.humanRequestReason,
    requestedAt: requested.humanRequestedAt!,
    outsideHours: request.outsideHours,
    systemMessage: systemMessageOfEvent(committed),
    notifications: notifications.map(({ id, operatorId }) => ({ id, operatorId })),
  });
  return committed;
}
