import type { Queryable } from "../db/database.js";
import { insertMessage } from "../answering/message-repository.js";
import type { Services } from "../services.js";
import { writeConversationState, type ConversationState, type NextState } from "./conversation-state-repository.js";

/** The system messages of the transitions, as the visitor and the operators read them. */
export const systemMessages = {
  humanRequested: "Waiting for a person to join",
  joined: (name: string) => `${name} joined the conversation`,
  released: "The assistant is back",
  closed: "Conversation closed",
  reopened: "Conversation reopened",
} as const;

/** A transition committed: the conversation's new state (seq of its `conversation.updated`) and its system message. */
export interface CommittedTransition {
  state: ConversationState & { updatedSeq: number };
  systemMessage: { id: string; seq: number; content: string; createdAt: string };
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
  systemText: string,
): Promise<CommittedTransition> {
  const written = await writeConversationState(tx, before.id, { ...next, assigneeId: next.assignee?.id ?? null });
  const message = await insertMessage(tx, { conversationId: before.id, role: "system", content: systemText });
  return {
    state: {
      ...before,
      status: next.status,
      assignee: next.assignee,
      humanRequestedAt: written.humanRequestedAt,
      humanRequestReason: written.humanRequestReason,
      updatedSeq: written.seq,
    },
    systemMessage: { id: message.id, seq: message.seq, content: systemText, createdAt: message.createdAt },
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
    message: { id: systemMessage.id, seq: systemMessage.seq, role: "system", content: systemMessage.content, citations: [], created_at: systemMessage.createdAt },
    author: null,
  });
}
