import type { AnswerTrace } from "@frontdesk/contracts";
import { stageOf, type TurnTrace } from "./turn-trace.js";

/** Passages kept with an answer: those it cites, then the best others, at most this many. */
const KEPT_PASSAGES = 4;
const EXCERPT_CHARACTERS = 300;

/**
 * The compact form of a turn's trace kept with the bot's answer (messages.answer_trace), for the
 * console's review queue: which stage decided, retrieval's verdict and why, and the passages read
 * (their first characters, not the whole chunks: the index can change, the answer's reason should
 * not). Rankings, scores and thresholds stay out: they explain retrieval to its developers, and
 * "Try a question" shows them in words when an operator asks again.
 */
export function compactAnswerTrace(trace: TurnTrace, generator: string | null): AnswerTrace {
  const confidence = stageOf(trace, "confidence");
  const retrieval = stageOf(trace, "retrieval")?.retrieval;
  const composition = stageOf(trace, "composition");
  const cited = new Set(composition?.citedDocumentIds ?? []);
  const passages = [...(retrieval?.passages ?? [])].sort((a, b) => Number(cited.has(b.documentId)) - Number(cited.has(a.documentId)));
  return {
    decided_by: trace.decidedBy,
    sure: confidence ? confidence.sure : null,
    reason: confidence ? confidence.reason : null,
    unknown_words: retrieval?.unknownLexemes ?? [],
    generator,
    turned_unsure: composition?.turnedUnsure ?? false,
    fell_back: composition?.fellBack ?? false,
    passages: passages.slice(0, KEPT_PASSAGES).map((passage) => ({
      url: passage.url,
      title: passage.title,
      heading: passage.heading,
      excerpt: passage.content.slice(0, EXCERPT_CHARACTERS),
      cited: cited.has(passage.documentId),
    })),
  };
}
