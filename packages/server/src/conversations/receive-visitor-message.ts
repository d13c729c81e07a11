import { insertVisitorQuestion, type StoredQuestion } from "./message-repository.js";
import type { Queryable } from "../db/database.js";
import type { Services } from "../services.js";
import type { WidgetSession } from "../widget/authenticate-session.js";
import { sessionEnded } from "./visitor-lock.js";
import { applyTransition, publishTransition, systemMessages, type CommittedTransition } from "./apply-transition.js";
import { lockConversationState } from "./conversation-state-repository.js";

/**
 * Work in the transaction that stores the message: `before` it (false: the message is not stored,
 * nothing is written) and `after` it (answering's idempotency key, answer-message-once.ts).
 */
export interface MessageClaim {
  before(tx: Queryable): Promise<boolean>;
  after(tx: Queryable, message: StoredQuestion): Promise<void>;
}

interface Received {
  reopened: CommittedTransition | null;
  message: StoredQuestion;
}

/**
 * Stores the visitor's message and tells the operators live, whatever the state; in a `closed`
 * conversation it first reopens it in `bot` ("Conversation reopened"). The stored message carries
 * the state it was written in (the bot answers only in `bot`), the `historyTurns` messages before
 * it and whether the agent has curated answers (see insertVisitorQuestion). With a `claim`, all of
 * it is one transaction with the claim's work, and null when the claim refused (nothing stored).
 */
export async function receiveVisitorMessage(services: Services, session: WidgetSession, content: string, historyTurns: number): Promise<StoredQuestion>;
export async function receiveVisitorMessage(services: Services, session: WidgetSession, content: string, historyTurns: number, claim: MessageClaim): Promise<StoredQuestion | null>;
export async function receiveVisitorMessage(services: Services, session: WidgetSession, content: string, historyTurns: number, claim?: MessageClaim): Promise<StoredQuestion | null> {
  const { conversation } = session;
  const question = { conversationId: conversation.id, content };
  /** In a transaction: a closed conversation reopens first; the conversation's row lock orders it. */
  const storeLocked = async (tx: Queryable): Promise<Received> => {
    const before = await lockConversationState(tx, conversation.workspaceId, conversation.id);
    if (!before) throw sessionEnded();
    const reopened: CommittedTransition | null =
      before.status === "closed" ? await applyTransition(tx, before, { status: "bot", assignee: null, humanRequest: { kind: "clear" } }, systemMessages.reopened) : null;
    const message = await insertVisitorQuestion(tx, question, "always", historyTurns);
    if (!message) throw new Error(`conversation ${conversation.id} does not exist`);
    return { reopened, message };
  };
  let received: Received | null;
  if (claim) {
    received = await services.db.transaction(async (tx) => {
      if (!(await claim.before(tx))) return null;
      const open = await insertVisitorQuestion(tx, question, "open", historyTurns);
      const outcome = open ? { reopened: null, message: open } : await storeLocked(tx);
      await claim.after(tx, outcome.message);
      return outcome;
    });
    if (!received) return null;
  } else {
    // The usual case in one statement; a closed conversation takes the transaction that reopens it.
    const open = await insertVisitorQuestion(services.db, question, "open", historyTurns);
    received = open ? { reopened: null, message: open } : await services.db.transaction(storeLocked);
  }
  if (received.reopened) publishTransition(services, received.reopened);
  const stored = received.message;
  // The usual path is one statement, committed by now: the event follows it at once (mail/ reacts
  // only to a message in a conversation an operator has). A process dying in between loses one alert.
  await services.events.raise(services.db, {
    type: "visitor.message.received",
    conversation: { workspaceId: conversation.workspaceId, agentId: conversation.agentId, conversationId: conversation.id, visitorId: conversation.visitorId },
    seq: stored.seq,
    status: stored.status,
    receivedAt: stored.createdAt,
  });
  services.bus.publish({
    type: "message.created",
    workspaceId: conversation.workspaceId,
    agentId: conversation.agentId,
    conversationId: conversation.id,
    message: { id: stored.id, seq: stored.seq, role: "visitor", content, citations: [], created_at: stored.createdAt },
    author: null,
  });
  return stored;
}
