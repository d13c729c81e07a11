import type { ApiTokenEvent, LeadEvent, OperatorEvent } from "@frontdesk/contracts";
import type { CuratedAnswerEvent } from "@frontdesk/contracts";
import type { ConversationDeletedEvent, ConversationSnoozedEvent } from "@frontdesk/contracts";
import type { Revocation } from "./channels/channel-grants.js";
import type { BusEvent } from "./event-bus.js";

/**
 * Our realtime contract, in one place: which channel, event name and payload each bus event
 * becomes, and which subscriptions it ends. The only file of realtime/ that knows conversations,
 * workspaces and operators.
 */

/** The visitor holding the conversation's session token, and the operators of its workspace. */
export const conversationChannel = (conversationId: string) => `private-conversation.${conversationId}`;
/** The workspace's operators. */
export const workspaceChannel = (workspaceId: string) => `private-workspace.${workspaceId}`;
/** Operators online; `channel_data` is `{user_id: operator id, user_info: {name}}`. */
export const operatorsPresenceChannel = (workspaceId: string) => `presence-operators.${workspaceId}`;
/**
 * The operators who have the conversation open (collision): `channel_data` is `{user_id: operator id,
 * user_info: {name, role}}`; members whisper `client-typing` `{typing}` to each other. Never a visitor's.
 */
export const conversationOperatorsChannel = (conversationId: string) => `presence-conversation-operators.${conversationId}`;

/**
 * Whom a signed subscription is granted to (channel-grants.ts), as the principals its rights
 * depend on: revoking any one of them ends it, on every process.
 */
export const grantPrincipals = {
  /** Every subscription signed for the operator (removed: all of them end). */
  operator: (operatorId: string) => `operator:${operatorId}`,
  /** Every subscription signed through one console session (ended: sign-out, sign out everywhere, a password change). */
  operatorSession: (sessionId: string) => `operator-session:${sessionId}`,
  /** A presence subscription whose signed `user_info` carries the operator's role (changed: it ends, to be signed again). */
  operatorAsRole: (operatorId: string, role: "admin" | "agent") => `operator-role:${operatorId}:${role}`,
  /** Every subscription to a conversation's channels, visitor's and operators' (deleted: erased or purged). */
  conversation: (conversationId: string) => `conversation:${conversationId}`,
};

const OPERATOR_ROLES = ["admin", "agent"] as const;

/** The subscriptions a bus event ends, and what their sockets are told; null when it ends none. */
export function revocationOf(event: BusEvent): Revocation | null {
  switch (event.type) {
    case "operator.removed":
      return { principals: [grantPrincipals.operator(event.operatorId)], reason: "The operator was removed." };
    case "operator.signed_out":
      return { principals: event.sessionIds.map(grantPrincipals.operatorSession), reason: "The console session has ended: sign in again." };
    case "operator.updated": {
      // A role change (a password change also says operator.updated, its sessions' end says operator.signed_out).
      const stale = OPERATOR_ROLES.filter((role) => role !== event.role).map((role) => grantPrincipals.operatorAsRole(event.operatorId, role));
      return { principals: stale, reason: "The operator's role changed: subscribe again." };
    }
    case "conversation.deleted":
      return { principals: [grantPrincipals.conversation(event.conversationId)], reason: "The conversation was deleted." };
    default:
      return null;
  }
}

export interface Broadcast {
  channel: string;
  event: string;
  payload: Record<string, unknown>;
}

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
    case "conversation.labels.changed":
      return [
        {
          channel: workspaceChannel(event.workspaceId),
          event: "conversation.labels.changed",
          payload: { conversation_id: event.conversationId, agent_id: event.agentId, changed_at: event.at },
        },
      ];
    case "conversation.snoozed": {
      // The workspace's operators only: a visitor never learns that their conversation was snoozed.
      const payload: ConversationSnoozedEvent = {
        conversation_id: event.conversationId,
        agent_id: event.agentId,
        snooze: event.snoozed ? { until: event.snoozedUntil } : null,
        cause: event.cause,
      };
      return [{ channel: workspaceChannel(event.workspaceId), event: "conversation.snoozed", payload }];
    }
    case "visitor.typing":
      return [{ channel: conversationChannel(event.conversationId), event: "typing", payload: { role: "visitor", typing: event.typing, name: null } }];
    case "operator.typing":
      return [
        { channel: conversationChannel(event.conversationId), event: "typing", payload: { role: "operator", typing: event.typing, name: event.operator.name } },
      ];
    case "human.requested":
      // The state change itself is the `conversation.updated` published with it (seq `event.seq`).
      return [
        {
          channel: workspaceChannel(event.workspaceId),
          event: "human.requested",
          payload: { conversation_id: event.conversationId, agent_id: event.agentId, reason: event.reason, requested_at: event.requestedAt, assigned_to: event.assignedTo },
        },
      ];
    case "conversation.updated": {
      const updated = { seq: event.seq, status: event.status, assignee: event.assignee, human_requested_at: event.humanRequestedAt };
      return [
        { channel: conversationChannel(event.conversationId), event: "conversation.updated", payload: updated },
        { channel: workspaceChannel(event.workspaceId), event: "conversation.updated", payload: { conversation_id: event.conversationId, ...updated } },
      ];
    }
    case "notification.created":
      // Every operator of the workspace got one, announced once on the shared channel: each console picks its own by operator_id.
      return [
        {
          channel: workspaceChannel(event.workspaceId),
          event: "notification.created",
          payload: {
            kind: event.kind,
            conversation_id: event.conversationId,
            created_at: event.at,
            notifications: event.notifications.map((notification) => ({ id: notification.id, operator_id: notification.operatorId })),
          },
        },
      ];
    case "conversation.deleted": {
      // Erased or purged: the workspace's consoles drop it from their lists, and an open view of it (console or widget) closes.
      const payload: ConversationDeletedEvent = { conversation_id: event.conversationId, agent_id: event.agentId, reason: event.reason, deleted_at: event.at };
      return [
        { channel: workspaceChannel(event.workspaceId), event: "conversation.deleted", payload },
        { channel: conversationChannel(event.conversationId), event: "conversation.deleted", payload },
      ];
    }
    case "agent.updated":
      // Created, changed, published or unpublished in the console: the Agents screen reads it again.
      return [
        {
          channel: workspaceChannel(event.workspaceId),
          event: "agent.updated",
          payload: { agent_id: event.agentId, published: event.published, updated_at: event.updatedAt },
        },
      ];
    case "curated_answer.updated": {
      const payload: CuratedAnswerEvent = { curated_answer_id: event.curatedAnswerId, agent_id: event.agentId, deleted: event.deleted };
      return [{ channel: workspaceChannel(event.workspaceId), event: "curated_answer.updated", payload }];
    }
    case "source.updated":
      return [
        {
          channel: workspaceChannel(event.workspaceId),
          event: "source.updated",
          payload: {
            source_id: event.sourceId,
            agent_id: event.agentId,
            status: event.status,
            syncing: event.syncing,
            progress: { pages_found: event.progress.found, pages_indexed: event.progress.indexed, pages_failed: event.progress.failed, pages_pending: event.progress.pending },
            error: event.error,
            deleted: event.deleted,
          },
        },
      ];
    case "lead.captured":
    case "lead.updated": {
      const payload: LeadEvent = { lead_id: event.leadId, agent_id: event.agentId, conversation_id: event.conversationId, at: event.at };
      return [{ channel: workspaceChannel(event.workspaceId), event: event.type, payload }];
    }
    case "token.created":
    case "token.revoked": {
      // The token's id only: its plaintext and hash never leave the request that issued it.
      const payload: ApiTokenEvent = { token_id: event.tokenId, at: event.at };
      return [{ channel: workspaceChannel(event.workspaceId), event: event.type, payload }];
    }
    case "operator.invited":
    case "operator.updated":
    case "operator.removed": {
      const payload: OperatorEvent = { operator_id: event.operatorId, role: event.role, at: event.at };
      return [{ channel: workspaceChannel(event.workspaceId), event: event.type, payload }];
    }
    case "operator.signed_out":
      // The Settings page hears of a password change by operator.updated; a sign-out is nobody else's news.
      return [];
    case "note.created": {
      // Operators' words about the conversation: the workspace's channel only. The conversation's
      // channel is its visitor's too, so a note is never published there.
      const { note } = event;
      return [
        {
          channel: workspaceChannel(event.workspaceId),
          event: "note.created",
          payload: {
            conversation_id: event.conversationId,
            id: note.id,
            content: note.content,
            author: note.author,
            mentions: note.mentions,
            after_seq: note.afterSeq,
            created_at: note.createdAt,
          },
        },
      ];
    }
    case "message.created": {
      // `author`: the operator who wrote it, or who joined (system `operator_joined`) ({id, name}); else null.
      // `code`: a system message's stable code, else null. `curated_answer_id`: the curated answer a bot reply was served from, else null.
      // `attachments`: the files sent with it (links signed for the visitor); absent when none.
      const { id, seq, role, content, citations, created_at } = event.message;
      const message = {
        id,
        seq,
        role,
        content,
        code: event.message.code ?? null,
        citations,
        created_at,
        author: event.author ?? null,
        curated_answer_id: event.message.curated_answer_id ?? null,
        ...(event.message.attachments?.length ? { attachments: event.message.attachments } : {}),
      };
      return [
        { channel: conversationChannel(event.conversationId), event: "message.created", payload: message },
        { channel: workspaceChannel(event.workspaceId), event: "message.created", payload: { conversation_id: event.conversationId, ...message } },
      ];
    }
  }
}
