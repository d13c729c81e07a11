import type { SystemMessageCode } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import type { FrontdeskEvent, SystemMessageOfEvent } from "../events/frontdesk-events.js";
import { insertMessage } from "./message-repository.js";
import { writeConversationState, type ConversationState, type NextState } from "./conversation-state-repository.js";

/**
 * A transition's system message: its stable code (clients show it in their reader's words), its
 * English text (for older clients) and, for `operator_joined`, the operator who joined.
 */
export interface SystemMessage {
  code: SystemMessageCode;
  content: string;
  author?: { id: string; name: string };
}

/** The system messages of the transitions. */
export const systemMessages = {
  humanRequested: { code: "human_requested", content: "Waiting for a person to join" },
  joined: (operator: { id: string; name: string }): SystemMessage => ({ code: "operator_joined", content: `${operator.name} joined the conversation`, author: operator }),
  released: { code: "bot_resumed", content: "The assistant is back" },
  closed: { code: "conversation_closed", content: "Conversation closed" },
  reopened: { code: "conversation_reopened", content: "Conversation reopened" },
} as const satisfies Record<string, SystemMessage | ((operator: { id: string; name: string }) => SystemMessage)>;

/** A transition committed: the conversation's new state (seq of its `conversation.updated`) and its system message. */
export interface CommittedTransition {
  state: ConversationState & { updatedSeq: number };
  systemMessage: SystemMessage & { id: string; seq: number; createdAt: string };
}

/**
 * The "set" of a compare-and-set: on a row the caller locked (lockConversationState) and checked,
 * writes the next state, then stores the transition's system message. Each takes the
 * conversation's next seq: `conversation.updated` first, its message right after. The caller
 * raises the transition in the same transaction (transitionedEvent, or `human.requested`).
 */
export async function applyTransition(
  tx: Queryable,
  before: ConversationState,
  next: Omit<NextState, "assigneeId"> & { assignee: { id: string; name: string } | null },
  system: SystemMessage,
): Promise<CommittedTransition> {
  const written = await writeConversationState(tx, before.id, { ...next, assigneeId: next.assignee?.id ?? null });
  const message = await insertMessage(tx, { conversationId: before.id, role: "system", content: system.content, systemCode: system.code, author: system.author ?? null });
  return {
    state: {
      ...before,
      status: next.status,
      assignee: next.assignee,
      humanRequestedAt: written.humanRequestedAt,
      humanRequestReason: written.humanRequestReason,
      updatedSeq: written.seq,
    },
    systemMessage: { ...system, id: message.id, seq: message.seq, createdAt: message.createdAt },
  };
}

/** A transition's system message, as its event carries it. */
export const systemMessageOfEvent = ({ systemMessage }: CommittedTransition): SystemMessageOfEvent => ({
  id: systemMessage.id,
  seq: systemMessage.seq,
  code: systemMessage.code,
  content: systemMessage.content,
  author: systemMessage.author ?? null,
  createdAt: systemMessage.createdAt,
});

/** `conversation.transitioned`, to raise in the transition's transaction (the consoles hear of it once committed). */
export const transitionedEvent = (committed: CommittedTransition): FrontdeskEvent => {
  const { state } = committed;
  return {
    type: "conversation.transitioned",
    conversation: { workspaceId: state.workspaceId, agentId: state.agentId, conversationId: state.id, visitorId: state.visitorId },
    seq: state.updatedSeq,
    status: state.status,
    assignee: state.assignee,
    humanRequestedAt: state.humanRequestedAt,
    systemMessage: systemMessageOfEvent(committed),
  };
};
