import { createHash } from "node:crypto";
import type { DomainEventSubscriber } from "../events/domain-events.js";
import type { ConversationOfEvent, FrontdeskEvent } from "../events/frontdesk-events.js";
import type { JobQueue } from "../jobs/job-queue.js";
import { queueWebhookEvent, type WebhookEventDraft } from "./queue-webhook-event.js";

/**
 * The service's webhook events, each the webhook form of a change's domain event, queued in that
 * change's transaction. Their data is docs/api.md's "Events" table.
 */

/** An event id that every process derives alike from what names one occurrence. */
const fixedEventId = (...parts: string[]) => `evt_${createHash("sha256").update(parts.join("\u0000")).digest("base64url").slice(0, 22)}`;

const conversationOf = (conversation: ConversationOfEvent) => ({ conversation_id: conversation.conversationId, agent_id: conversation.agentId });
const aboutConversation = (conversation: ConversationOfEvent) => ({ visitorId: conversation.visitorId, conversationId: conversation.conversationId });

/** The webhook event of a domain event; null for those no webhook announces (messages: e-mail reacts to them). */
export function webhookEventOf(event: FrontdeskEvent): WebhookEventDraft | null {
  switch (event.type) {
    case "lead.saved":
      return {
        workspaceId: event.workspaceId,
        type: event.created ? "lead.created" : "lead.updated",
        at: event.lead.updated_at,
        data: { lead: event.lead },
        subject: { visitorId: event.lead.visitor_id, conversationId: event.lead.conversation_id },
      };
    case "human.requested":
      return {
        workspaceId: event.conversation.workspaceId,
        type: "human.requested",
        at: event.requestedAt,
        data: { ...conversationOf(event.conversation), reason: event.reason, requested_at: event.requestedAt, outside_hours: event.outsideHours },
        subject: aboutConversation(event.conversation),
      };
    case "conversation.closed":
      return {
        workspaceId: event.conversation.workspaceId,
        type: "conversation.closed",
        at: event.closedAt,
        data: { ...conversationOf(event.conversation), assignee: event.assignee, closed_at: event.closedAt },
        subject: aboutConversation(event.conversation),
      };
    case "conversation.labelled":
      return {
        workspaceId: event.conversation.workspaceId,
        type: "conversation.labelled",
        at: event.labelledAt,
        data: { ...conversationOf(event.conversation), label: event.label, by: event.by, labelled_at: event.labelledAt },
        subject: aboutConversation(event.conversation),
      };
    case "satisfaction.rated":
      return {
        workspaceId: event.conversation.workspaceId,
        type: "satisfaction.rated",
        at: event.ratedAt,
        data: { ...conversationOf(event.conversation), rating: event.rating, comment: event.comment, rated_at: event.ratedAt },
        subject: aboutConversation(event.conversation),
      };
    case "message.rated":
      return {
        workspaceId: event.conversation.workspaceId,
        type: "message.rated",
        at: event.ratedAt,
        data: { ...conversationOf(event.conversation), message_id: event.messageId, rating: event.rating, comment: event.comment, rated_at: event.ratedAt },
        subject: aboutConversation(event.conversation),
      };
    case "visitor.message.received":
    case "operator.replied":
    // Only putting a label on is announced (conversation.labelled).
    case "conversation.unlabelled":
    // An internal fact (answer tests react to it), not announced to receivers.
    case "agent.answering.changed":
      return null;
    // What only the consoles are told live (the realtime bus, after the commit).
    case "conversation.started":
    case "conversation.transitioned":
    case "conversation.snoozed":
    case "bot.replied":
    case "conversations.deleted":
    case "agent.changed":
    case "curated_answer.changed":
    case "source.changed":
    case "source.deleted":
    case "operator.invited":
    case "operator.updated":
    case "operator.removed":
    case "operator.signed_out":
    case "token.created":
    case "token.revoked":
    // Operators' internal words: never sent to receivers outside the console.
    case "note.added":
      return null;
    case "answer_tests.regressed":
      // One run regresses once: its id is derived from the run, so a retried run is not announced twice.
      return {
        workspaceId: event.workspaceId,
        type: "answer_tests.regressed",
        at: event.finishedAt,
        id: fixedEventId("answer_tests.regressed", event.runId),
        data: {
          agent_id: event.agentId,
          run_id: event.runId,
          finished_at: event.finishedAt,
          tests: event.tests.map((test) => ({ id: test.id, question: test.question, reason: test.reason })),
        },
      };
    case "source.settled": {
      // A re-sync that failed keeps an indexed source `indexed` with its error: that sync failed.
      // One sync may settle more than once (two page jobs ending together, a WordPress push that
      // changes nothing pending): its id is derived from the sync, so it is queued once.
      const type = event.status === "failed" || event.error !== null ? "source.failed" : "source.indexed";
      return {
        workspaceId: event.workspaceId,
        type,
        at: event.settledAt,
        id: fixedEventId(type, event.sourceId, event.syncRequestedAt),
        data: { source_id: event.sourceId, agent_id: event.agentId, status: event.status, pages: event.pages, error: event.error },
      };
    }
  }
}

/** The webhooks' subscriber: each domain event's deliveries queued in its change's transaction. */
export const queueWebhooksOf =
  (jobs: JobQueue): DomainEventSubscriber<FrontdeskEvent> =>
  async (tx, event) => {
    const draft = webhookEventOf(event);
    if (draft) await queueWebhookEvent(tx, jobs, draft);
  };
