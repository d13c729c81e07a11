import type { Citation, MessageBody } from "@frontdesk/contracts";
import type { Services } from "../services.js";
import type { WidgetSession } from "../widget/authenticate-session.js";
import { recordVisitorPage } from "../widget/sessions.js";
import { readCachedAgent } from "../widget/read-cached-agent.js";
import { textSearchConfigFor } from "../language/text-search-config.js";
import type { AnswerErrorCode, ConversationTurn } from "./generate/answer-generator.js";
import { receiveVisitorMessage } from "../conversations/receive-visitor-message.js";
import { insertBotReply } from "./message-repository.js";
import { retrievalTexts } from "./retrieve/build-retrieval-query.js";
import { retrieveHybrid } from "./retrieve/retrieve-hybrid.js";
import { findCuratedAnswer } from "../console/curated/find-curated-answer.js";
import { requestHuman } from "../conversations/request-human.js";
import { asksForPerson, saysYes } from "./intent/person-request.js";

const HISTORY_TURNS = 8;

/** What the visitor sees of an answer, as it happens: shared by the JSON and the SSE endpoints. */
export type ConversationEvent =
  | { type: "token"; token: string }
  | { type: "citations"; citations: Citation[] }
  | { type: "error"; code: AnswerErrorCode; message: string }
  | { type: "done"; messageId: string; lowConfidence: boolean; awaitingHuman: boolean; discarded?: boolean; curated?: boolean };

/**
 * POST /messages(/stream): stores the visitor's message (reopening a closed conversation); only in
 * the `bot` state, retrieves the agent's knowledge, generates the answer (streamed), and stores the
 * bot's reply with its citations, confidence, generator and latency, on condition that the state is
 * still `bot` and unchanged since the question: a reply generated while an operator took over is
 * discarded (not stored, not published) and the answer ends with `done` `discarded`. When `signal`
 * aborts (the client left), generation stops and what was generated is stored.
 */
export async function* answerMessage(
  services: Services,
  session: WidgetSession,
  body: MessageBody,
  signal: AbortSignal,
): AsyncGenerator<ConversationEvent> {
  const started = Date.now();
  const { conversation } = session;
  // The statement that stores the message reads the state, the history and whether curated answers exist: outside `bot` nothing more is read.
  const visitorMessage = await receiveVisitorMessage(services, session, body.message, HISTORY_TURNS);
  const pageRecorded = recordVisitorPage(services.db, conversation.id, { pageUrl: body.page_url, pageContext: body.page_context });
  if (visitorMessage.status !== "bot") {
    await pageRecorded;
    yield { type: "done", messageId: visitorMessage.id, lowConfidence: false, awaitingHuman: true };
    return;
  }
  const { history } = visitorMessage;
  // Independent reads, at once: the visitor waits for the longest, not for their sum.
  const [cachedAgent, curated] = await Promise.all([
    readCachedAgent(services, conversation.agentId),
    // An operator's curated answer to a question close enough to this one is the answer: no retrieval, no generation.
    visitorMessage.agentHasCuratedAnswers
      ? findCuratedAnswer(services.db, { workspaceId: conversation.workspaceId, agentId: conversation.agentId, question: body.message })
      : null,
    pageRecorded,
  ]);
  const agent = cachedAgent?.agent;
  const language = agent?.languageDefault ?? "en";
  if (curated) {
    yield* answerWithCurated(services, session, visitorMessage, curated.curated, started);
    return;
  }
  // "Can I talk to a human?", or "yes" to the unsure bot's "Would you like me to connect you with a
  // person?": the visitor asked for a person, as the widget's button does. The bot says nothing more.
  const saidYesToPerson = saysYes(body.message) && history.findLast((turn) => turn.role !== "visitor")?.lowConfidence === true;
  if (asksForPerson(body.message) || saidYesToPerson) {
    await requestHuman(services, session, saidYesToPerson ? null : body.message);
    yield { type: "done", messageId: visitorMessage.id, lowConfidence: false, awaitingHuman: true };
    return;
  }
  const retrieval = await retrieveHybrid(services.db, services.embedder, services.lexical, {
    agentId: conversation.agentId,
    ...retrievalTexts({
      message: body.message,
      recentVisitorMessages: history.filter((message) => message.role === "visitor").map((message) => message.content),
      pageContext: body.page_context,
      language,
    }),
    textSearchConfig: textSearchConfigFor(language),
    calibration: services.retrievalCalibration(services.embedder.id),
  });

  let content = "";
  let citedDocumentIds: number[] = [];
  let lowConfidence = retrieval.lowConfidence;
  let generator = services.answers.id;
  for await (const event of services.answers.generate({
    question: body.message,
    passages: retrieval.passages.map(({ chunkId: _chunkId, ...passage }) => passage),
    lowConfidence: retrieval.lowConfidence,
    history: history
      .filter((message): message is typeof message & { role: ConversationTurn["role"] } => message.role !== "system")
      .map((message) => ({ role: message.role, content: message.content })),
    persona: { name: agent?.personaName ?? "Assistant", tone: agent?.personaTone ?? "friendly" },
    language,
    signal,
  })) {
    if (event.type === "token") {
      content += event.token;
      yield event;
    } else if (event.type === "error") {
      yield event;
    } else {
      citedDocumentIds = event.citedDocumentIds;
      lowConfidence = event.lowConfidence;
      generator = event.generator;
    }
  }

  if (signal.aborted && content === "") {
    // The visitor left before the first word: there is no reply to keep (and nobody to send one to).
    yield { type: "done", messageId: visitorMessage.id, lowConfidence, awaitingHuman: false };
    return;
  }
  const documents = new Map(retrieval.passages.map((passage) => [passage.documentId, passage]));
  const citations: Citation[] = citedDocumentIds.flatMap((id) => {
    const document = documents.get(id);
    return document ? [{ id, url: document.url, ...(document.title.trim() ? { title: document.title.trim() } : {}) }] : [];
  });
  const reply = await insertBotReply(
    services.db,
    { conversationId: conversation.id, role: "bot", content, citations, lowConfidence, generator, latencyMs: Date.now() - started },
    visitorMessage.seq,
  );
  if (!reply) {
    // An operator took over (or the state changed) while the answer was generated: it is not the bot's turn any more.
    yield { type: "done", messageId: visitorMessage.id, lowConfidence, awaitingHuman: false, discarded: true };
    return;
  }
  services.bus.publish({
    type: "message.created",
    workspaceId: conversation.workspaceId,
    agentId: conversation.agentId,
    conversationId: conversation.id,
    message: { id: reply.id, seq: reply.seq, role: "bot", content, citations, created_at: reply.createdAt },
    author: null,
  });
  yield { type: "citations", citations };
  yield { type: "done", messageId: reply.id, lowConfidence, awaitingHuman: false };
}

/** Curated answers stream in pieces of a few words, like a generated answer. */
const CURATED_PIECE = /\S+\s*/g;

/**
 * Answers with a curated answer (see answerMessage): streamed like any answer, citing its source
 * URL if it has one (document id 0: it is no indexed document), never low-confidence, stored with
 * `curated_answer_id` and the generator `curated`. Discarded as any reply when the state changed.
 */
async function* answerWithCurated(
  services: Services,
  session: WidgetSession,
  question: { id: string; seq: number },
  curated: { id: string; answer: string; sourceUrl: string | null },
  started: number,
): AsyncGenerator<ConversationEvent> {
  const { conversation } = session;
  const leading = curated.answer.match(/^\s*/)?.[0] ?? "";
  if (leading !== "") yield { type: "token", token: leading };
  for (const piece of curated.answer.slice(leading.length).match(CURATED_PIECE) ?? []) yield { type: "token", token: piece };
  // Numbered as any reply's first source: the widget and the console list citations by their number.
  const citations: Citation[] = curated.sourceUrl ? [{ id: 1, url: curated.sourceUrl }] : [];
  const reply = await insertBotReply(
    services.db,
    {
      conversationId: conversation.id,
      role: "bot",
      content: curated.answer,
      citations,
      lowConfidence: false,
      generator: "curated",
      latencyMs: Date.now() - started,
      curatedAnswerId: curated.id,
    },
    question.seq,
  );
  if (!reply) {
    yield { type: "done", messageId: question.id, lowConfidence: false, awaitingHuman: false, discarded: true };
    return;
  }
  services.bus.publish({
    type: "message.created",
    workspaceId: conversation.workspaceId,
    agentId: conversation.agentId,
    conversationId: conversation.id,
    message: { id: reply.id, seq: reply.seq, role: "bot", content: curated.answer, citations, created_at: reply.createdAt, curated_answer_id: curated.id },
    author: null,
  });
  yield { type: "citations", citations };
  yield { type: "done", messageId: reply.id, lowConfidence: false, awaitingHuman: false, curated: true };
}
