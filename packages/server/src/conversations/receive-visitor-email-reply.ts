import type { ConversationStatus } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import type { Services } from "../services.js";
import { findAgent, officeHoursStatus } from "../tenants/agents.js";
import { applyTransition, systemMessages, transitionedEvent } from "./apply-transition.js";
import { lockConversationState } from "./conversation-state-repository.js";
import { handToAPerson } from "./hand-to-a-person.js";
import { insertVisitorQuestion } from "./message-repository.js";
import { wakeOnVisitorMessage } from "./wake-snoozed-conversation.js";

/** A visitor's reply by e-mail, its text already extracted (plain text, quotes and signature gone). */
export interface EmailReply {
  workspaceId: string;
  conversationId: string;
  /** The visitor the mail was matched to: the conversation must still be theirs. */
  visitorId: string;
  content: string;
}

export type EmailReplyOutcome =
  | { stored: true; messageId: string; seq: number; status: ConversationStatus }
  /** `duplicate`: the claim refused (this mail was stored before); `conversation_gone`: erased, or not the visitor's. Nothing was written. */
  | { stored: false; reason: "duplicate" | "conversation_gone" };

/**
 * Stores a visitor's reply by e-mail in their conversation, in one transaction with `claim` (the
 * mail's receipt, so that a mail received twice is stored once: false, and nothing is written).
 * Nobody is at the widget to read a bot's answer, so none is ever made: a conversation in `bot`
 * (or `closed`, reopened first, "Conversation reopened") is handed to a person (`awaiting_human`,
 * `human.requested`, the operators notified) before the message is stored; while waiting for a
 * person or with an operator it stays as it is. `visitor.message.received` is raised in the
 * transaction, so mail/'s check wakes the assignee of a conversation in `human`; the console sees
 * everything live once it is committed, as for a message from the widget.
 */
export async function receiveVisitorEmailReply(services: Services, reply: EmailReply, claim: (tx: Queryable) => Promise<boolean>): Promise<EmailReplyOutcome> {
  const received = await services.db.transaction(async (tx) => {
    const before = await lockConversationState(tx, reply.workspaceId, reply.conversationId);
    if (!before || before.visitorId !== reply.visitorId) return { stored: false as const, reason: "conversation_gone" as const };
    if (!(await claim(tx))) return { stored: false as const, reason: "duplicate" as const };
    let state = before;
    if (state.status === "closed") {
      const reopened = await applyTransition(tx, state, { status: "bot", assignee: null, humanRequest: { kind: "clear" } }, systemMessages.reopened);
      await services.events.raise(tx, transitionedEvent(reopened));
      state = reopened.state;
    }
    if (state.status === "bot") {
      const agent = await findAgent(tx, state.agentId);
      const outsideHours = !officeHoursStatus(agent?.officeHours ?? null, services.now()).openNow;
      await handToAPerson(services, tx, state, { reason: null, outsideHours });
    }
    const message = await insertVisitorQuestion(tx, { conversationId: reply.conversationId, content: reply.content }, "always", 0);
    if (!message) throw new Error(`conversation ${reply.conversationId} does not exist`);
    await wakeOnVisitorMessage(services, tx, state);
    await services.events.raise(tx, {
      type: "visitor.message.received",
      conversation: { workspaceId: state.workspaceId, agentId: state.agentId, conversationId: state.id, visitorId: state.visitorId },
      messageId: message.id,
      seq: message.seq,
      content: reply.content,
      status: message.status,
      receivedAt: message.createdAt,
    });
    return { stored: true as const, message };
  });
  if (!received.stored) return received;
  const { message } = received;
  return { stored: true, messageId: message.id, seq: message.seq, status: message.status };
}
