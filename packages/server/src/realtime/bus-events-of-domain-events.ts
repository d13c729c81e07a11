import type { AfterCommitSubscriber } from "../events/domain-events.js";
import type { ConversationStatus } from "@frontdesk/contracts";
import type { ConversationOfEvent, FrontdeskEvent, SystemMessageOfEvent } from "../events/frontdesk-events.js";
import type { BusEvent, EventBus, OperatorAuthor } from "./event-bus.js";

const aboutConversation = (conversation: ConversationOfEvent) => ({
  workspaceId: conversation.workspaceId,
  agentId: conversation.agentId,
  conversationId: conversation.conversationId,
});

/** A transition: `conversation.updated`, then its system message's `message.created`. */
function transitionBusEvents(
  conversation: ConversationOfEvent,
  state: { seq: number; status: ConversationStatus; assignee: OperatorAuthor | null; humanRequestedAt: string | null },
  systemMessage: SystemMessageOfEvent,
): BusEvent[] {
  return [
    { type: "conversation.updated", ...aboutConversation(conversation), seq: state.seq, status: state.status, assignee: state.assignee, humanRequestedAt: state.humanRequestedAt },
    {
      type: "message.created",
      ...aboutConversation(conversation),
      message: {
        id: systemMessage.id,
        seq: systemMessage.seq,
        role: "system",
        content: systemMessage.content,
        code: systemMessage.code,
        citations: [],
        created_at: systemMessage.createdAt,
      },
      author: systemMessage.author,
    },
  ];
}

/**
 * What the operators' consoles are told live of a committed change: the bus events of a domain
 * event, in order (none for a change no console shows live). The one place that knows both.
 */
export function busEventsOf(event: FrontdeskEvent): BusEvent[] {
  switch (event.type) {
    case "conversation.labelled":
      return [{ type: "conversation.labels.changed", ...aboutConversation(event.conversation), at: event.labelledAt }];
    case "conversation.unlabelled":
      return [{ type: "conversation.labels.changed", ...aboutConversation(event.conversation), at: event.unlabelledAt }];
    case "conversation.started":
      return [{ type: "conversation.started", ...aboutConversation(event.conversation), visitorId: event.conversation.visitorId, at: event.startedAt }];
    case "conversation.transitioned":
      return transitionBusEvents(event.conversation, event, event.systemMessage);
    case "human.requested": {
      const { conversation, requestedAt } = event;
      return [
        ...transitionBusEvents(conversation, { seq: event.seq, status: "awaiting_human", assignee: null, humanRequestedAt: requestedAt }, event.systemMessage),
        { type: "human.requested", ...aboutConversation(conversation), seq: event.seq, reason: event.reason, requestedAt, assignedTo: event.routedTo?.id ?? null },
        { type: "notification.created", workspaceId: conversation.workspaceId, conversationId: conversation.conversationId, kind: "human_requested", at: requestedAt, notifications: event.notifications },
      ];
    }
    case "conversation.snoozed":
      return [{ type: "conversation.snoozed", ...aboutConversation(event.conversation), snoozed: event.snoozed, snoozedUntil: event.snoozedUntil, cause: event.cause }];
    case "visitor.message.received":
      return [
        {
          type: "message.created",
          ...aboutConversation(event.conversation),
          message: { id: event.messageId, seq: event.seq, role: "visitor", content: event.content, citations: [], created_at: event.receivedAt, ...(event.attachments ? { attachments: event.attachments } : {}) },
          author: null,
        },
      ];
    case "operator.replied":
      return [
        {
          type: "message.created",
          ...aboutConversation(event.conversation),
          message: { id: event.messageId, seq: event.seq, role: "operator", content: event.content, citations: [], created_at: event.repliedAt, ...(event.attachments ? { attachments: event.attachments } : {}) },
          author: event.author,
        },
      ];
    case "bot.replied": {
      const { message } = event;
      return [
        {
          type: "message.created",
          ...aboutConversation(event.conversation),
          message: {
            id: message.id,
            seq: message.seq,
            role: "bot",
            content: message.content,
            citations: message.citations,
            created_at: message.createdAt,
            ...(message.curatedAnswerId === null ? {} : { curated_answer_id: message.curatedAnswerId }),
          },
          author: null,
        },
      ];
    }
    case "note.added": {
      const { note, mentioned } = event;
      const mentions = mentioned.map((operator) => ({ id: operator.operatorId, name: operator.name }));
      return [
        { type: "note.created", ...aboutConversation(event.conversation), note: { ...note, mentions } },
        ...(mentioned.length === 0
          ? []
          : [
              {
                type: "notification.created" as const,
                workspaceId: event.conversation.workspaceId,
                conversationId: event.conversation.conversationId,
                kind: "note.mentioned",
                at: note.createdAt,
                notifications: mentioned.map((operator) => ({ id: operator.notificationId, operatorId: operator.operatorId })),
              },
            ]),
      ];
    }
    case "conversations.deleted":
      return event.conversations.map((conversation) => ({ type: "conversation.deleted", ...conversation, reason: event.reason, at: event.deletedAt }));
    case "lead.saved": {
      const { lead } = event;
      return [{ type: event.created ? "lead.captured" : "lead.updated", workspaceId: event.workspaceId, agentId: lead.agent_id, leadId: lead.id, conversationId: lead.conversation_id, at: lead.updated_at }];
    }
    case "agent.changed":
      return [{ type: "agent.updated", workspaceId: event.workspaceId, agentId: event.agentId, published: event.published, updatedAt: event.updatedAt }];
    case "curated_answer.changed":
      return [{ type: "curated_answer.updated", workspaceId: event.workspaceId, agentId: event.agentId, curatedAnswerId: event.curatedAnswerId, deleted: event.deleted }];
    case "operator.invited":
    case "operator.updated":
    case "operator.removed":
    case "operator.signed_out":
    case "token.created":
    case "token.revoked":
      // The settings' events are told as they are: ids and the role only.
      return [event];
    default:
      // The sources' live state is read from the store (console/knowledge/source-update-publisher.ts);
      // the rest (a rating, a settled sync's webhook …) no console shows live.
      return [];
  }
}

/** The realtime bus as an after-commit subscriber: consoles hear of a change only once it is committed. */
export const publishBusEventsOf =
  (bus: EventBus): AfterCommitSubscriber<FrontdeskEvent> =>
  (event) => {
    for (const busEvent of busEventsOf(event)) bus.publish(busEvent);
  };
