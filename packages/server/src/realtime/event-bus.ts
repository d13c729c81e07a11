import { EventEmitter } from "node:events";
import type { Attachment, Citation, ConversationStatus, SystemMessageCode } from "@frontdesk/contracts";

/** An operator as the visitor and the other operators see them. */
export interface OperatorAuthor {
  id: string;
  name: string;
}

/** What the service tells operators in real time. One union, shared by every carrier. */
export type BusEvent =
  /** `assignedTo`: the operator the agent's round robin gave it to (their console alone alerts), null when it waits for anyone. */
  | { type: "human.requested"; workspaceId: string; agentId: string; conversationId: string; seq: number; reason: string | null; requestedAt: string; assignedTo: string | null }
  | { type: "visitor.typing"; workspaceId: string; agentId: string; conversationId: string; typing: boolean; at: string }
  | { type: "operator.typing"; workspaceId: string; agentId: string; conversationId: string; typing: boolean; operator: OperatorAuthor }
  | {
      type: "conversation.updated";
      workspaceId: string;
      agentId: string;
      conversationId: string;
      /** The transition's place among the conversation's events. */
      seq: number;
      status: ConversationStatus;
      assignee: OperatorAuthor | null;
      humanRequestedAt: string | null;
    }
  | {
      type: "notification.created";
      workspaceId: string;
      conversationId: string;
      kind: string;
      at: string;
      /** One per operator of the workspace: each console picks its own by `operatorId`. */
      notifications: { id: string; operatorId: string }[];
    }
  | { type: "conversation.started"; workspaceId: string; agentId: string; conversationId: string; visitorId: string; at: string }
  /** A label was put on or taken off a conversation: the consoles read its labels again. */
  | { type: "conversation.labels.changed"; workspaceId: string; agentId: string; conversationId: string; at: string }
  /** A conversation was snoozed or came back (`snoozedUntil` null while snoozed: until the visitor writes): the inbox's lists read again. */
  | {
      type: "conversation.snoozed";
      workspaceId: string;
      agentId: string;
      conversationId: string;
      snoozed: boolean;
      snoozedUntil: string | null;
      cause: "snoozed" | "unsnoozed" | "time" | "visitor_message";
    }
  | { type: "agent.updated"; workspaceId: string; agentId: string; published: boolean; updatedAt: string }
  /** The conversation and all it held were deleted (a visitor's erasure, or the retention purge): consoles drop it. */
  | { type: "conversation.deleted"; workspaceId: string; agentId: string; conversationId: string; reason: "erasure" | "retention"; at: string }
  /** A curated answer was created, changed or deleted (`deleted`) in the console: its lists read again. */
  | { type: "curated_answer.updated"; workspaceId: string; agentId: string; curatedAnswerId: string; deleted: boolean }
  | {
      /** A source was added, progressed, settled, or was deleted (`deleted`): the Knowledge screen's live status. */
      type: "source.updated";
      workspaceId: string;
      agentId: string;
      sourceId: string;
      status: "pending" | "indexed" | "failed";
      syncing: boolean;
      progress: { found: number; indexed: number; failed: number; pending: number };
      error: { code: string; message: string } | null;
      deleted: boolean;
    }
  | {
      /** A lead was stored (`lead.captured`) or a repeat e-mail updated it (`lead.updated`): the Leads screen reads it again. */
      type: "lead.captured" | "lead.updated";
      workspaceId: string;
      agentId: string;
      leadId: string;
      conversationId: string | null;
      at: string;
    }
  | { /** An API token was issued or revoked (console or CLI): the Settings page reads its tokens again. */ type: "token.created" | "token.revoked"; workspaceId: string; tokenId: string; at: string }
  | {
      /** An operator was invited, changed (role, password set) or removed: the Settings page reads its operators again. */
      type: "operator.invited" | "operator.updated" | "operator.removed";
      workspaceId: string;
      operatorId: string;
      role: "admin" | "agent";
      at: string;
    }
  | {
      /** Console sessions ended (a sign-out; every session of the operator: sign out everywhere, a password change): what they were granted ends. */
      type: "operator.signed_out";
      workspaceId: string;
      operatorId: string;
      sessionIds: string[];
    }
  | {
      /** An operator's internal note: told to the workspace's operators only, never on the conversation's channel (its visitor holds it). */
      type: "note.created";
      workspaceId: string;
      agentId: string;
      conversationId: string;
      note: { id: string; content: string; author: OperatorAuthor; mentions: OperatorAuthor[]; afterSeq: number; createdAt: string };
    }
  | {
      type: "message.created";
      workspaceId: string;
      agentId: string;
      conversationId: string;
      /** `seq`: the message's place among its conversation's events. */
      message: {
        id: string;
        seq: number;
        role: "visitor" | "bot" | "operator" | "system";
        content: string;
        /** A system message's stable code. */
        code?: SystemMessageCode | null;
        citations: Citation[];
        created_at: string;
        /** The curated answer a bot reply was served from ("Fix this answer"). */
        curated_answer_id?: string | null;
        /** The files sent with it, with links signed for the visitor (the operators may open them too). */
        attachments?: Attachment[];
      };
      /** The operator who wrote it (role `operator`) or who joined (system `operator_joined`). */
      author?: OperatorAuthor | null;
    };

export type BusListener = (event: BusEvent) => void;

/** Publish/subscribe inside one process; the realtime server carries these events to operators. */
export interface EventBus {
  publish(event: BusEvent): void;
  subscribe(listener: BusListener): () => void;
}

export function createInProcessEventBus(): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish(event) {
      emitter.emit("event", event);
    },
    subscribe(listener) {
      emitter.on("event", listener);
      return () => emitter.off("event", listener);
    },
  };
}
