import { createHash } from "node:crypto";
import type { Lead } from "@frontdesk/contracts";
import type { ConversationState } from "../conversations/conversation-states.js";
import type { SettledSource } from "../sources/sources.js";
import type { WebhookEventDraft } from "./queue-webhook-event.js";

/**
 * The service's webhook events, each built by the change that makes it, in that change's
 * transaction (queueWebhookEvent). Their data is the README's "Events" table.
 */

/** An event id that every process derives alike from what names one occurrence. */
const fixedEventId = (...parts: string[]) => `evt_${createHash("sha256").update(parts.join("\u0000")).digest("base64url").slice(0, 22)}`;

/** A conversation as its events name it. */
type ConversationRef = Pick<ConversationState, "id" | "workspaceId" | "agentId">;

const conversationOf = (conversation: ConversationRef) => ({ conversation_id: conversation.id, agent_id: conversation.agentId });

/** A visitor left an e-mail not known for the agent (`lead.created`), or a known one again (`lead.updated`). */
export const leadEvent = (workspaceId: string, lead: Lead, created: boolean): WebhookEventDraft => ({
  workspaceId,
  type: created ? "lead.created" : "lead.updated",
  at: lead.updated_at,
  data: { lead },
  subject: { visitorId: lead.visitor_id, conversationId: lead.conversation_id },
});

export const humanRequestedEvent = (state: ConversationState): WebhookEventDraft => ({
  workspaceId: state.workspaceId,
  type: "human.requested",
  at: state.humanRequestedAt!,
  subject: { conversationId: state.id },
  data: { ...conversationOf(state), reason: state.humanRequestReason, requested_at: state.humanRequestedAt },
});

export const conversationClosedEvent = (state: ConversationState, closedAt: string): WebhookEventDraft => ({
  workspaceId: state.workspaceId,
  type: "conversation.closed",
  at: closedAt,
  subject: { conversationId: state.id },
  data: { ...conversationOf(state), assignee: state.assignee, closed_at: closedAt },
});

export const satisfactionRatedEvent = (conversation: ConversationRef, rating: { rating: "good" | "bad"; comment: string | null; at: string }): WebhookEventDraft => ({
  workspaceId: conversation.workspaceId,
  type: "satisfaction.rated",
  at: rating.at,
  subject: { conversationId: conversation.id },
  data: { ...conversationOf(conversation), rating: rating.rating, comment: rating.comment, rated_at: rating.at },
});

/**
 * A source's sync ended: `source.indexed`, or `source.failed` (a re-sync that failed keeps an
 * indexed source `indexed` with its error: that sync failed). One sync may settle more than once
 * (two page jobs ending together, a WordPress push that changes nothing pending): its id is derived
 * from the sync, so it is queued once.
 */
export function sourceSettledEvent(source: SettledSource, pages: { found: number; indexed: number; failed: number }): WebhookEventDraft {
  const type = source.status === "failed" || source.error !== null ? "source.failed" : "source.indexed";
  return {
    workspaceId: source.workspaceId,
    type,
    at: source.settledAt,
    id: fixedEventId(type, source.id, source.syncRequestedAt),
    data: { source_id: source.id, agent_id: source.agentId, status: source.status, pages: { found: pages.found, indexed: pages.indexed, failed: pages.failed }, error: source.error },
  };
}
