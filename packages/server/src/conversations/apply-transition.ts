import type { SystemMessageCode } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { insertMessage } from "./message-repository.js";
import type { Services } from "../services.js";
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
 * conversation's next seq: `conversation.updated` first, its message right after.
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

/** After commit: `conversation.updated`, then the system message's `message.created`, on the conversation's and the workspace's channels. */
export function publishTransition(services: Services, committed: CommittedTransition): void {
  const { state, systemMessage } = committed;
  services.sessionCache.forget(state.id);
  services.bus.publish({
    type: "conversation.updated",
    workspaceId: state.workspaceId,
    agentId: state.agentId,
    conversationId: state.id,
    seq: state.updatedSeq,
    status: state.status,
    assignee: state.assignee,
    humanRequestedAt: state.humanRequestedAt,
  });
  services.bus.publish({
    type: "message.created",
    workspaceId: state.workspaceId,
    agentId: state.agentId,
    conversationId: state.id,
    message: {
      id: systemMessage.id,
      seq: systemMessage.seq,
      role: "system",
      content: systemMessage.content,
      code: systemMessage.code,
      citations: [],
      created_at: systemMessage.createdAt,
    },
    author: systemMessage.author ?? null,
  });
}
