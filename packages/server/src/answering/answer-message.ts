import type { Citation, MessageBody } from "@frontdesk/contracts";
import type { Services } from "../services.js";
import type { WidgetSession } from "../widget/authenticate-session.js";
import { recordVisitorPage } from "../conversations/visitor-sessions.js";
import { readCachedAgent } from "../widget/read-cached-agent.js";
import type { AnswerErrorCode } from "./generate/answer-generator.js";
import { insertBotReply, type StoredQuestion } from "../conversations/messages.js";
import { findCuratedAnswer } from "../console/curated/find-curated-answer.js";
import { requestHuman } from "../conversations/request-human.js";
import { compactAnswerTrace } from "./answer-trace.js";
import type { TurnTrace } from "./turn-trace.js";
import { answerTurn, turnKnowledgeOf, type CuratedMatch, type TurnDecision } from "./answer-turn.js";

/** What the visitor sees of an answer, as it happens: shared by the JSON and the SSE endpoints. */
export type ConversationEvent =
  | { type: "token"; token: string }
  | { type: "citations"; citations: Citation[] }
  | { type: "error"; code: AnswerErrorCode; message: string }
  | { type: "done"; messageId: string; lowConfidence: boolean; awaitingHuman: boolean; discarded?: boolean; curated?: boolean };

/**
 * POST /messages(/stream), once the visitor's message is stored (`visitorMessage`, by
 * receiveVisitorMessage in answer-message-once.ts; reopening a closed conversation): only in the
 * `bot` state and for a message with words, answers the turn (`answerTurn`: a curated answer, a
 * request for a person, small talk, or retrieval and generation, streamed) and applies its
 * decision: the handoff is requested, or the bot's reply is stored with its citations, confidence,
 * generator and latency, on condition that the state is still `bot` and unchanged since the
 * question: a reply written while an operator took over is discarded (not stored, not published)
 * and the answer ends with `done` `discarded`. When `signal` aborts (the client left), writing
 * stops and what was written is stored.
 */
export async function* answerStoredQuestion(
  services: Services,
  session: WidgetSession,
  body: MessageBody,
  visitorMessage: StoredQuestion,
  signal: AbortSignal,
  started = Date.now(),
): AsyncGenerator<ConversationEvent> {
  const { conversation } = session;
  const pageRecorded = recordVisitorPage(services.db, conversation.id, { pageUrl: body.page_url, pageContext: body.page_context });
  if (visitorMessage.status !== "bot") {
    await pageRecorded;
    yield { type: "done", messageId: visitorMessage.id, lowConfidence: false, awaitingHuman: true };
    return;
  }
  if (body.message.trim() === "") {
    // Files without a word: nothing to answer. Attachments never reach the model (only the text
    // and the history's texts do): the providers' path has no notion of images yet.
    await pageRecorded;
    yield { type: "done", messageId: visitorMessage.id, lowConfidence: false, awaitingHuman: false };
    return;
  }
  // Independent reads, at once: the visitor waits for the longest, not for their sum.
  const curatedLookup: Promise<CuratedMatch | null> | null = visitorMessage.agentHasCuratedAnswers
    ? findCuratedAnswer(services.db, { workspaceId: conversation.workspaceId, agentId: conversation.agentId, question: body.message }).then((found) =>
        found === null ? null : { ...found.curated, similarity: found.similarity },
      )
    : null;
  const [cachedAgent, , , embedder] = await Promise.all([
    readCachedAgent(services, conversation.agentId),
    curatedLookup,
    pageRecorded,
    services.embedders.active(conversation.workspaceId),
  ]);
  const agent = cachedAgent?.agent;
  const generator = agent === undefined ? services.answers : await services.answerModels.forAgent(services.db, services.answers, agent, cachedAgent?.modelProviderRevision ?? null);

  let content = "";
  let decision: TurnDecision | null = null;
  let trace: TurnTrace | null = null;
  for await (const event of answerTurn(
    turnKnowledgeOf(services, embedder, curatedLookup === null ? undefined : () => curatedLookup, generator),
    {
      agent: {
        id: conversation.agentId,
        language: agent?.languageDefault ?? "en",
        persona: { name: agent?.personaName ?? "Assistant", tone: agent?.personaTone ?? "friendly" },
        instructions: agent?.instructions,
      },
      message: body.message,
      history: visitorMessage.history,
      pageContext: body.page_context,
      signal,
    },
  )) {
    if (event.type === "decided") ({ decision, trace } = event);
    else {
      if (event.type === "token") content += event.token;
      yield event;
    }
  }
  if (decision === null) throw new Error("the turn ended without a decision");

  if (decision.kind === "handoff") {
    // The visitor asked for a person, as the widget's button does. The bot says nothing more.
    await requestHuman(services, session, decision.reason);
    yield { type: "done", messageId: visitorMessage.id, lowConfidence: false, awaitingHuman: true };
    return;
  }
  const { reply } = decision;
  if (signal.aborted && content === "") {
    // The visitor left before the first word: there is no reply to keep (and nobody to send one to).
    yield { type: "done", messageId: visitorMessage.id, lowConfidence: reply.lowConfidence, awaitingHuman: false };
    return;
  }
  const curatedAnswerId = reply.curatedAnswerId ?? undefined;
  const stored = await insertBotReply(
    services.db,
    {
      conversationId: conversation.id,
      role: "bot",
      content,
      citations: reply.citations,
      lowConfidence: reply.lowConfidence,
      generator: reply.generator,
      latencyMs: Date.now() - started,
      answerTrace: trace === null ? null : compactAnswerTrace(trace, reply.generator),
      ...(curatedAnswerId === undefined ? {} : { curatedAnswerId }),
    },
    visitorMessage.seq,
  );
  if (!stored) {
    // An operator took over (or the state changed) while the answer was written: it is not the bot's turn any more.
    yield { type: "done", messageId: visitorMessage.id, lowConfidence: reply.lowConfidence, awaitingHuman: false, discarded: true };
    return;
  }
  // One statement, committed by now: raised on the store, its subscribers run at once.
  await services.events.raise(services.db, {
    type: "bot.replied",
    conversation: { workspaceId: conversation.workspaceId, agentId: conversation.agentId, conversationId: conversation.id, visitorId: conversation.visitorId },
    message: { id: stored.id, seq: stored.seq, content, citations: reply.citations, curatedAnswerId: curatedAnswerId ?? null, createdAt: stored.createdAt },
  });
  yield { type: "citations", citations: reply.citations };
  yield { type: "done", messageId: stored.id, lowConfidence: reply.lowConfidence, awaitingHuman: false, ...(curatedAnswerId === undefined ? {} : { curated: true }) };
}
