import type { AnswerInstructions } from "@frontdesk/contracts";

/** A retrieved chunk of the site, as numbered in the prompt and cited in the answer. */
export interface Passage {
  /** 1-based, as shown in the prompt (`[1]`, `[2]` …). */
  number: number;
  documentId: number;
  url: string;
  title: string;
  heading: string | null;
  content: string;
  score: number;
  /** Where the passage stands in its document (its chunk's index), when retrieval gives it: an extractive answer quotes passages of one document in this order. */
  chunkIndex?: number;
}

export interface ConversationTurn {
  role: "visitor" | "bot" | "operator";
  content: string;
}

export interface AnswerRequest {
  question: string;
  /** Best first; empty when nothing was retrieved. */
  passages: Passage[];
  /**
   * Retrieval was unsure the passages answer the question. The extractive generator then offers
   * them as doubtful matches instead of quoting them; a model still reads them and judges itself.
   */
  lowConfidence: boolean;
  /** Recent turns, oldest first, excluding the current question. */
  history: ConversationTurn[];
  persona: { name: string; tone: string };
  /** The agent's default language (BCP 47, e.g. "en", "fr"). */
  language: string;
  /** The agent's extra rules, answer length and unsure behaviour (absent: the defaults). */
  instructions?: AnswerInstructions;
  /** The client went away: stop generating. */
  signal: AbortSignal;
}

/**
 * Why an answer stopped after part of it had been sent. Failures before the first token never
 * reach the caller of a generator built by `createAnswerGenerator`: the answer falls back to
 * the extractive generator instead.
 */
export type AnswerErrorCode = "generation_failed" | "generation_timeout";

/**
 * What decided whether an answer is sure, as its generator saw it (recorded in the turn's trace):
 * - `answered`: it quotes (extractive) or cites by its `[n]` markers (a model) passages that answer;
 * - `nothing_retrieved`: there was no passage to answer from;
 * - `retrieval_unsure`: the extractive generator offers retrieval's doubtful matches, not a quote;
 * - `no_answering_sentence`: retrieval was sure, but no sentence of the passages answers the question;
 * - `model_declined`: the model said the passages do not hold the answer (`[0]`);
 * - `model_cited_nothing`: the model wrote an answer naming no passage, so nothing shows it rests on the site;
 * - `fell_back`: the configured generator gave no answer and another one wrote it;
 * - `interrupted`: the visitor left, or the generator broke off without ending its answer.
 */
export type AnswerJudgement =
  | "answered"
  | "nothing_retrieved"
  | "retrieval_unsure"
  | "no_answering_sentence"
  | "model_declined"
  | "model_cited_nothing"
  | "fell_back"
  | "interrupted";

/**
 * The events of one answer, in order: `token`* then, only when the answer broke off after
 * tokens were sent, one `error`, then always exactly one `done`, which is the last event
 * (also after the caller's `signal` aborted).
 *
 * The text of the answer is the concatenation of the `token`s: citation markers are already
 * removed. `error.message` is safe to show to a visitor; the cause is reported to the
 * generator's logger, never in the event.
 */
export type AnswerEvent =
  | { type: "token"; token: string }
  | { type: "error"; code: AnswerErrorCode; message: string }
  | {
      type: "done";
      /** The documents the answer rests on, deduplicated, in first-cited order. */
      citedDocumentIds: number[];
      /** True when the answer is not grounded in the site: `judgement` says why. */
      lowConfidence: boolean;
      /** What decided `lowConfidence`. */
      judgement: AnswerJudgement;
      /** Which generator produced the text, e.g. `extractive` or `openai:gpt-4o-mini`. */
      generator: string;
    };

export type AnswerDone = Extract<AnswerEvent, { type: "done" }>;
export type AnswerError = Extract<AnswerEvent, { type: "error" }>;

/** Answers a visitor's question from retrieved passages, streaming first. */
export interface AnswerGenerator {
  /** Stable identity, e.g. `extractive`, `openai:gpt-4o-mini`, `anthropic:claude-haiku-4-5`. */
  readonly id: string;
  /** Never throws once iteration starts: failures are `error` events (see AnswerEvent). */
  generate(request: AnswerRequest): AsyncIterable<AnswerEvent>;
}

/** The visitor-facing messages of `error` events. */
export const answerErrorMessages: Record<AnswerErrorCode, string> = {
  generation_failed: "The answer was interrupted. Please try again.",
  generation_timeout: "The answer took too long and was cut short. Please try again.",
};

/** The part of a pino logger the generators use: model failures and fallbacks are warnings. */
export interface AnswerLogger {
  warn(details: object, message: string): void;
}
