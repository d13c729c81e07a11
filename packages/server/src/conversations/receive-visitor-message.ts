import { insertVisitorQuestion, type StoredQuestion } from "./message-repository.js";
import type { Services } from "../services.js";
import type { WidgetSession } from "../widget/authenticate-session.js";
import { sessionEnded } from "./visitor-lock.js";
import { applyTransition, publishTransition, systemMessages, type CommittedTransition } from "./apply-transition.js";
import { lockConversationState } from "./conversation-state-repository.js";

/**
 * Stores the visitor's message and tells the operators live, whatever the state; in a `closed`
 * conversation it first reopens it in `bot` ("Conversation reopened"). The stored message carries
 * the state it was written in (the bot answers only in `bot`), the `historyTurns` messages before
 * it and whether the agent has curated answers (see insertVisitorQuestion).
 */
export async function receiveVisitorMessage(services: Services, session: WidgetSession, content: string, historyTurns: number): Promise<StoredQuestion> {
  const { conversation } = session;
  const question = { conversationId: conversation.id, content };
  // The usual case in one statement; a closed conversation takes the transaction that reopens it.
  let stored = await insertVisitorQuestion(services.db, question, "open", historyTurns);
  if (!stored) {
    const outcome = await services.db.transaction(async (tx) => {
      const before = await lockConversationState(tx, conversation.workspaceId, conversation.id);
      if (!before) throw sessionEnded();
      const reopened: CommittedTransition | null =
        before.status === "closed"
          ? await applyTransition(tx, before, { status: "bot", assignee: null, humanRequest: { kind: "clear" } }, systemMessages.reopened)
          : null;
      const message = await insertVisitorQuestion(tx, question, "always", historyTurns);
      if (!message) throw new Error(`conversation ${conversation.id} does not exist`);
      return { reopened, message };
    });
    if (outcome.reopened) publishTransition(services, outcome.reopened);
    stored = outcome.message;
  }
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
