import type { BusEvent } from "./event-bus.js";

/**
 * Our realtime contract, in one place: which channel, event name and payload each bus event
 * becomes. The only file of realtime/ that knows conversations, workspaces and operators.
 */

/** The visitor holding the conversation's session token, and the operators of its workspace. */
export const conversationChannel = (conversationId: string) => `private-conversation.${conversationId}`;
/** The workspace's operators. */
export const workspaceChannel = (workspaceId: string) => `private-workspace.${workspaceId}`;
/** Operators online; `channel_data` is `{user_id: operator id, user_info: {name}}`. */
export const operatorsPresenceChannel = (workspaceId: string) => `presence-operators.${workspaceId}`;

export interface Broadcast {
  channel: string;
  event: string;
  payload: Record<string, unknown>;
}

/** A conversation waiting for a human (later: `assigned` and `closed`, with operator takeover). */
type ConversationStatus = "open" | "human_requested";

export function broadcastsOf(event: BusEvent): Broadcast[] {
  switch (event.type) {
    case "conversation.started":
      return [
        {
          channel: workspaceChannel(event.workspaceId),
          event: "conversation.started",
          payload: { conversation_id: event.conversationId, agent_id: event.agentId, visitor_id: event.visitorId, created_at: event.at },
        },
      ];
    case "visitor.typing":
      return [{ channel: conversationChannel(event.conversationId), event: "typing", payload: { role: "visitor", typing: event.typing, name: null } }];
    case "human.requested": {
      const status: ConversationStatus = "human_requested";
      const updated = { seq: event.seq, status, assignee: null, human_requested_at: event.requestedAt };
      return [
        { channel: conversationChannel(event.conversationId), event: "conversation.updated", payload: updated },
        { channel: workspaceChannel(event.workspaceId), event: "conversation.updated", payload: { conversation_id: event.conversationId, ...updated } },
        {
          channel: workspaceChannel(event.workspaceId),
          event: "human.requested",
          payload: { conversation_id: event.conversationId, agent_id: event.agentId, reason: event.reason, requested_at: event.requestedAt },
        },
      ];
    }
    case "message.created": {
      // `author`: the operator who wrote it (operator messages come with the operator console); null otherwise.
      const { id, seq, role, content, citations, created_at } = event.message;
      const message = { id, seq, role, content, citations, created_at, author: null };
      return [
        { channel: conversationChannel(event.conversationId), event: "message.created", payload: message },
        { channel: workspaceChannel(event.workspaceId), event: "message.created", payload: { conversation_id: event.conversationId, ...message } },
      ];
    }
  }
}
