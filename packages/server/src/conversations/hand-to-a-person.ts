import type { Queryable } from "../db/database.js";
import { notifyWorkspaceOperators } from "../inbox/notifications.js";
import type { Services } from "../services.js";
import { applyTransition, systemMessageOfEvent, systemMessages, transitionedEvent, type CommittedTransition } from "./apply-transition.js";
import type { ConversationState } from "./conversation-state-repository.js";
import { routeHumanRequest } from "./route-human-request.js";

/**
 * In the caller's transaction, on a conversation it locked in `bot` or `closed`: `awaiting_human`
 * with the request stamped now, and `human.requested` raised with all of it. The visitor's "talk
 * to a person" (request-human.ts, also the bot's handoff) and a reply by e-mail
 * (receive-visitor-email-reply.ts) both come through here.
 *
 * An agent that routes round robin (route-human-request.ts) gives the request to the operator
 * online whose turn it is: only they are notified in the inbox (and on their devices), and the
 * conversation goes on to `human` with them as its assignee ("Ana joined the conversation"),
 * raised as a transition after the request. Otherwise, or when no eligible operator is online,
 * every operator of the workspace is notified and the request waits for anyone to take it.
 */
export async function handToAPerson(
  services: Services,
  tx: Queryable,
  before: ConversationState,
  request: { reason: string | null; outsideHours: boolean },
): Promise<CommittedTransition> {
  const committed = await applyTransition(tx, before, { status: "awaiting_human", assignee: null, humanRequest: { kind: "stamp", reason: request.reason } }, systemMessages.humanRequested);
  const requested = committed.state;
  const routedTo = await routeHumanRequest(services, tx, requested);
  const notifications = await notifyWorkspaceOperators(tx, {
    workspaceId: requested.workspaceId,
    kind: "human_requested",
    conversationId: requested.id,
    payload: {
      agent_id: requested.agentId,
      visitor_id: requested.visitorId,
      reason: request.reason,
      ...(request.outsideHours ? { outside_hours: true } : {}),
      ...(routedTo ? { assigned_to: routedTo.id } : {}),
    },
    ...(routedTo ? { onlyOperatorId: routedTo.id } : {}),
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
    routedTo,
  });
  if (!routedTo) return committed;
  const assigned = await applyTransition(tx, requested, { status: "human", assignee: routedTo, humanRequest: { kind: "keep" } }, systemMessages.joined(routedTo));
  await services.events.raise(tx, transitionedEvent(assigned));
  return assigned;
}
