import type { Queryable } from "../db/database.js";
import { notifyWorkspaceOperators } from "../inbox/notifications.js";
import type { Services } from "../services.js";
import { applyTransition, publishTransition, systemMessages, type CommittedTransition } from "./apply-transition.js";
import type { ConversationState } from "./conversation-state-repository.js";

/** A conversation handed to a person: its transition and the operators' notifications, to publish after commit. */
export interface HandedToPerson {
  committed: CommittedTransition;
  notifications: { id: string; operatorId: string }[];
}

/**
 * In the caller's transaction, on a conversation it locked in `bot` or `closed`: `awaiting_human`
 * with the request stamped now, `human.requested` raised, and every operator of the workspace
 * notified in the inbox. The visitor's "talk to a person" (request-human.ts) and a reply by e-mail
 * (receive-visitor-email-reply.ts) both come through here.
 */
export async function handToAPerson(
  services: Services,
  tx: Queryable,
  before: ConversationState,
  request: { reason: string | null; outsideHours: boolean },
): Promise<HandedToPerson> {
  const committed = await applyTransition(tx, before, { status: "awaiting_human", assignee: null, humanRequest: { kind: "stamp", reason: request.reason } }, systemMessages.humanRequested);
  const requested = committed.state;
  await services.events.raise(tx, {
    type: "human.requested",
    conversation: { workspaceId: requested.workspaceId, agentId: requested.agentId, conversationId: requested.id, visitorId: requested.visitorId },
    reason: requested.humanRequestReason,
    requestedAt: requested.humanRequestedAt!,
    outsideHours: request.outsideHours,
  });
  const notifications = await notifyWorkspaceOperators(tx, {
    workspaceId: requested.workspaceId,
    kind: "human_requested",
    conversationId: requested.id,
    payload: { agent_id: requested.agentId, visitor_id: requested.visitorId, reason: request.reason, ...(request.outsideHours ? { outside_hours: true } : {}) },
  });
  return { committed, notifications };
}

/** After commit: the transition, the request and the notifications, live to the console. */
export function publishHandedToPerson(services: Services, handed: HandedToPerson): void {
  const { state } = handed.committed;
  publishTransition(services, handed.committed);
  services.bus.publish({
    type: "human.requested",
    workspaceId: state.workspaceId,
    agentId: state.agentId,
    conversationId: state.id,
    seq: state.updatedSeq,
    reason: state.humanRequestReason,
    requestedAt: state.humanRequestedAt!,
  });
  services.bus.publish({
    type: "notification.created",
    workspaceId: state.workspaceId,
    conversationId: state.id,
    kind: "human_requested",
    at: state.humanRequestedAt!,
    notifications: handed.notifications.map(({ id, operatorId }) => ({ id, operatorId })),
  });
}
