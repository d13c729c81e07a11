import { insertVisitorQuestion, type StoredQuestion } from "./message-repository.js";
import type { Queryable } from "../db/database.js";
import type { Services } from "../services.js";
import type { WidgetSession } from "../widget/authenticate-session.js";
import { retryOnConcurrencyFailure } from "../db/retry-on-concurrency-failure.js";
import { sessionEnded } from "./visitor-lock.js";
import { applyTransition, systemMessages, transitionedEvent } from "./apply-transition.js";
import { lockConversationState } from "./conversation-state-repository.js";
import { wakeOnVisitorMessage } from "./wake-snoozed-conversation.js";
import { sendAttachments } from "../attachments/attachments.js";

/** A visitor's message: its text, and the ids of uploads of the conversation it sends (attachments/). */
export interface VisitorMessageInput {
  content: string;
  attachmentIds?: readonly string[] | undefined;
}

/**
 * Work in the transaction that stores the message: `before` it (false: the message is not stored,
 * nothing is written) and `after` it (answering's idempotency key, answer-message-once.ts).
 */
export interface MessageClaim {
  before(tx: Queryable): Promise<boolean>;
  after(tx: Queryable, message: StoredQuestion): Promise<void>;
}

/**
 * Stores the visitor's message and tells the operators live, whatever the state; in a `closed`
 * conversation it first reopens it in `bot` ("Conversation reopened"). The stored message carries
 * the state it was written in (the bot answers only in `bot`), the `historyTurns` messages before
 * it and whether the agent has curated answers (see insertVisitorQuestion). One transaction, with
 * the claim's work when there is one (null when the claim refused: nothing stored), raising
 * `visitor.message.received` with the message: mail/'s check commits with it, and the consoles
 * hear of it once committed. Uploads it sends are given to it in the same transaction (an id that
 * is not an unsent upload of the conversation: 404 `attachment_not_found`, nothing stored).
 */
export async function receiveVisitorMessage(services: Services, session: WidgetSession, input: VisitorMessageInput, historyTurns: number): Promise<StoredQuestion>;
export async function receiveVisitorMessage(services: Services, session: WidgetSession, input: VisitorMessageInput, historyTurns: number, claim: MessageClaim): Promise<StoredQuestion | null>;
export async function receiveVisitorMessage(services: Services, session: WidgetSession, input: VisitorMessageInput, historyTurns: number, claim?: MessageClaim): Promise<StoredQuestion | null> {
  const { conversation } = session;
  const { content } = input;
  const question = { conversationId: conversation.id, content };
  /** A closed conversation reopens first; the conversation's row lock orders it. */
  const storeLocked = async (tx: Queryable): Promise<StoredQuestion> => {
    const before = await lockConversationState(tx, conversation.workspaceId, conversation.id);
    if (!before) throw sessionEnded();
    if (before.status === "closed") {
      const reopened = await applyTransition(tx, before, { status: "bot", assignee: null, humanRequest: { kind: "clear" } }, systemMessages.reopened);
      await services.events.raise(tx, transitionedEvent(reopened));
    }
    const message = await insertVisitorQuestion(tx, question, "always", historyTurns);
    if (!message) throw new Error(`conversation ${conversation.id} does not exist`);
    return message;
  };
  // The one-statement store may lock the conversation's row without storing (it was closed meanwhile:
  // Postgres keeps the lock of a row it re-checked); the reopening then locks the visitor after it,
  // against erasure's order (visitor-lock.ts). Postgres ends one of the two as a deadlock: when it is
  // this one, nothing of it was committed, and it runs again (then reopens, or finds the visitor gone: 401).
  return retryOnConcurrencyFailure(() => services.db.transaction(async (tx) => {
    if (claim && !(await claim.before(tx))) return null;
    // The usual case in one statement; a closed conversation takes the lock that reopens it.
    const stored = (await insertVisitorQuestion(tx, question, "open", historyTurns)) ?? (await storeLocked(tx));
    await claim?.after(tx, stored);
    // Their message brings a snoozed conversation back to the inbox's open view.
    await wakeOnVisitorMessage(services, tx, conversation);
    const attachments = await sendAttachments(services, tx, {
      workspaceId: conversation.workspaceId,
      conversationId: conversation.id,
      messageId: stored.id,
      uploader: { kind: "visitor" },
      ids: input.attachmentIds,
    });
    await services.events.raise(tx, {
      type: "visitor.message.received",
      conversation: { workspaceId: conversation.workspaceId, agentId: conversation.agentId, conversationId: conversation.id, visitorId: conversation.visitorId },
      messageId: stored.id,
      seq: stored.seq,
      content,
      status: stored.status,
      receivedAt: stored.createdAt,
      ...(attachments ? { attachments } : {}),
    });
    return stored;
  }));
}
