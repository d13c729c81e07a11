import type { AnswerInstructions, Citation } from "@frontdesk/contracts";
import type { Database } from "../db/database.js";
import type { Services } from "../services.js";
import type { Embedder } from "../embeddings/embedder.js";
import { detectLanguage } from "../language/detect-language.js";
import { textSearchConfigFor } from "../language/text-search-config.js";
import { confidenceReason } from "./confidence/retrieval-confidence.js";
import type { AnswerDone, AnswerErrorCode, AnswerGenerator, ConversationTurn } from "./generate/answer-generator.js";
import { asksForPerson, saysYes } from "./intent/person-request.js";
import { smallTalkOf } from "./intent/small-talk.js";
import { retrievalTexts } from "./retrieve/build-retrieval-query.js";
import type { RetrievalCaches } from "./retrieve/retrieval-caches.js";
import type { RetrievalCalibration } from "./retrieve/retrieval-calibration.js";
import { retrieveHybrid, type Retrieval } from "./retrieve/retrieve-hybrid.js";
import type { StageRecord, TurnStage, TurnTrace } from "./turn-trace.js";

/** How many of the conversation's latest messages (visitor's, bot's and operators') a turn reads. */
export const HISTORY_TURNS = 8;

/** A message of the conversation before the visitor's, oldest first. */
export interface TurnHistoryEntry {
  role: "visitor" | "bot" | "operator" | "system";
  content: string;
  /** A bot reply that was unsure (and so offered a person). */
  lowConfidence?: boolean;
}

/** An operator's curated answer matching the visitor's message. */
export interface CuratedMatch {
  id: string;
  /** The question it was written for. */
  question: string;
  answer: string;
  sourceUrl: string | null;
  similarity: number;
}

/** What a turn answers from: the agent's knowledge and the service's generator. */
export interface TurnKnowledge {
  db: Database;
  embedder: Embedder;
  lexical: RetrievalCaches;
  calibration: RetrievalCalibration;
  generator: AnswerGenerator;
  /** Looks for an operator's curated answer to the message (a read only); absent when the agent has none. */
  findCuratedAnswer?: (message: string) => Promise<CuratedMatch | null>;
}

/**
 * The service's knowledge and a generator as a turn reads them, with the agent's curated answers
 * when it has any: questions are embedded with `embedder`, the workspace's active one, whose vectors
 * retrieval searches (a re-embedding's new vectors are not searched before the switch).
 * `generator`: the agent's (`AnswerModels.forAgent`); the instance's by default.
 */
export function turnKnowledgeOf(
  services: Pick<Services, "db" | "lexical" | "retrievalCalibration" | "answers">,
  embedder: Embedder,
  findCuratedAnswer?: (message: string) => Promise<CuratedMatch | null>,
  generator: AnswerGenerator = services.answers,
): TurnKnowledge {
  return {
    db: services.db,
    embedder,
    lexical: services.lexical,
    calibration: services.retrievalCalibration(embedder.id),
    generator,
    ...(findCuratedAnswer === undefined ? {} : { findCuratedAnswer }),
  };
}

export interface TurnInput {
  /** `instructions`: the agent's extra rules, answer length and unsure behaviour, given to the generator. */
  agent: { id: string; language: string; persona: { name: string; tone: string }; instructions?: AnswerInstructions | undefined };
  message: string;
  /** The conversation's latest messages before this one, oldest first (at most `HISTORY_TURNS`). */
  history: readonly TurnHistoryEntry[];
  pageContext?: Record<string, unknown> | undefined;
  /** The visitor left: stop writing. */
  signal: AbortSignal;
}

/** A reply the bot gives (the caller stores it, or only shows it). */
export interface TurnReply {
  content: string;
  citations: Citation[];
  lowConfidence: boolean;
  /** Who wrote it: `curated`, `small-talk`, `extractive`, `openai:…`, `anthropic:…`. */
  generator: string;
  curatedAnswerId: string | null;
}

/** What the turn decided, for the caller to apply: a reply, or the handoff to a person (`reason`: the visitor's words, null for a yes). */
export type TurnDecision = { kind: "reply"; reply: TurnReply } | { kind: "handoff"; reason: string | null };

/** The events of a turn: the reply's text as it is written (and an error if it broke off), then what was decided and why. */
export type TurnEvent =
  | { type: "token"; token: string }
  | { type: "error"; code: AnswerErrorCode; message: string }
  | { type: "decided"; decision: TurnDecision; trace: TurnTrace };

/** Fixed replies (curated, small talk) stream word by word, like a generated answer; the pieces add up to the text exactly. */
const FIXED_PIECE = /\s*\S+(?:\s+$)?|^\s+$/g;

/** The citations of a generated reply: the documents it rests on, as retrieved. */
function citationsOf(documentIds: readonly number[], retrieval: Retrieval): Citation[] {
  // The first (best-ranked) passage of each document names it: a file's citation points at that passage's page.
  const documents = new Map<number, (typeof retrieval.passages)[number]>();
  for (const passage of retrieval.passages) if (!documents.has(passage.documentId)) documents.set(passage.documentId, passage);
  return documentIds.flatMap((id) => {
    const document = documents.get(id);
    return document ? [{ id, url: document.url, ...(document.title.trim() ? { title: document.title.trim() } : {}) }] : [];
  });
}

/**
 * Answers a visitor's turn, as ordered stages, each recorded in the trace with why it decided or
 * passed (see `TURN_STAGES`): an operator's curated answer close to the message; a request for a
 * person ("can I talk to a human?", or yes right after an unsure reply); small talk ("thanks!",
 * answered in the visitor's language); then the follow-up reading (with the earlier message it
 * continues), retrieval, confidence, and the composition by the service's generator (extractive or
 * a model). The first three behave alike whatever the generator. Retrieval's confidence decides
 * for the extractive generator (it quotes nothing it doubts); a model is given every retrieved
 * passage and its own verdict decides (the composition records which, as `judgement`). Nothing is written: the caller
 * applies the decision (the widget stores the reply or requests a person; "Try a question" only
 * shows it). The last event is always `decided`.
 */
export async function* answerTurn(knowledge: TurnKnowledge, input: TurnInput): AsyncGenerator<TurnEvent> {
  const stages: StageRecord[] = [];
  const decided = (decision: TurnDecision, by: TurnStage): TurnEvent => ({ type: "decided", decision, trace: { stages, decidedBy: by } });
  const { agent, message } = input;

  const curated = knowledge.findCuratedAnswer ? await knowledge.findCuratedAnswer(message) : null;
  if (curated !== null) {
    stages.push({ stage: "curated_answer", decided: true, curated: { id: curated.id, question: curated.question, similarity: curated.similarity } });
    yield* fixedReply(curated.answer, input.signal);
    // Numbered as any reply's first source: the widget and the console list citations by their number.
    const citations = curated.sourceUrl ? [{ id: 1, url: curated.sourceUrl }] : [];
    yield decided({ kind: "reply", reply: { content: curated.answer, citations, lowConfidence: false, generator: "curated", curatedAnswerId: curated.id } }, "curated_answer");
    return;
  }
  stages.push({ stage: "curated_answer", decided: false, looked: knowledge.findCuratedAnswer !== undefined });

  // "Can I talk to a human?", or "yes" to the unsure bot's "Would you like me to connect you with a person?".
  const saidYesToPerson = saysYes(message) && input.history.findLast((turn) => turn.role !== "visitor")?.lowConfidence === true;
  if (asksForPerson(message) || saidYesToPerson) {
    stages.push({ stage: "person_request", decided: true, reason: saidYesToPerson ? "said_yes_to_offer" : "asked_in_words" });
    yield decided({ kind: "handoff", reason: saidYesToPerson ? null : message }, "person_request");
    return;
  }
  stages.push({ stage: "person_request", decided: false });

  // "hi" or "thanks" is greeted back in the visitor's language: it asks nothing, so nothing is looked up.
  const smallTalk = smallTalkOf(message, { language: detectLanguage(message, agent.language), name: agent.persona.name });
  if (smallTalk !== null) {
    stages.push({ stage: "small_talk", decided: true, kind: smallTalk.kind, language: smallTalk.language });
    yield* fixedReply(smallTalk.reply, input.signal);
    yield decided({ kind: "reply", reply: { content: smallTalk.reply, citations: [], lowConfidence: false, generator: "small-talk", curatedAnswerId: null } }, "small_talk");
    return;
  }
  stages.push({ stage: "small_talk", decided: false });

  const texts = retrievalTexts({
    message,
    recentVisitorMessages: input.history.filter((turn) => turn.role === "visitor").map((turn) => turn.content),
    pageContext: input.pageContext,
    language: agent.language,
  });
  stages.push({ stage: "follow_up", decided: false, ...texts });

  const retrieval = await retrieveHybrid(knowledge.db, knowledge.embedder, knowledge.lexical, {
    agentId: agent.id,
    query: texts.query,
    question: texts.question,
    textSearchConfig: textSearchConfigFor(agent.language),
    calibration: knowledge.calibration,
  });
  stages.push({ stage: "retrieval", decided: false, retrieval });
  const { thresholds } = knowledge.calibration;
  const reason = retrieval.passages.length === 0 ? "nothing_retrieved" : confidenceReason(retrieval.signals, thresholds);
  stages.push({ stage: "confidence", decided: false, sure: !retrieval.lowConfidence, reason, thresholds });

  let content = "";
  let done: Omit<AnswerDone, "type"> = { citedDocumentIds: [], lowConfidence: true, judgement: "interrupted", generator: knowledge.generator.id };
  for await (const event of knowledge.generator.generate({
    question: message,
    passages: retrieval.passages.map(({ chunkId: _chunkId, ...passage }) => passage),
    // Retrieval's verdict: the extractive generator quotes nothing it doubts; a model reads the passages all the same and judges.
    lowConfidence: retrieval.lowConfidence,
    history: input.history
      .filter((turn): turn is TurnHistoryEntry & { role: ConversationTurn["role"] } => turn.role !== "system")
      .map((turn) => ({ role: turn.role, content: turn.content })),
    persona: agent.persona,
    language: agent.language,
    ...(agent.instructions === undefined ? {} : { instructions: agent.instructions }),
    signal: input.signal,
  })) {
    if (event.type === "token") content += event.token;
    if (event.type === "done") done = event;
    else yield event;
  }
  stages.push({
    stage: "composition",
    decided: true,
    generator: done.generator,
    lowConfidence: done.lowConfidence,
    citedDocumentIds: done.citedDocumentIds,
    judgement: done.judgement,
    turnedUnsure: !retrieval.lowConfidence && done.lowConfidence,
    turnedSure: retrieval.lowConfidence && !done.lowConfidence,
    fellBack: done.generator !== knowledge.generator.id,
  });
  const reply: TurnReply = { content, citations: citationsOf(done.citedDocumentIds, retrieval), lowConfidence: done.lowConfidence, generator: done.generator, curatedAnswerId: null };
  yield decided({ kind: "reply", reply }, "composition");
}

/** A fixed reply's tokens, word by word, until the visitor leaves. */
function* fixedReply(text: string, signal: AbortSignal): Generator<TurnEvent> {
  for (const token of text.match(FIXED_PIECE) ?? []) {
    if (signal.aborted) return;
    yield { type: "token", token };
  }
}
