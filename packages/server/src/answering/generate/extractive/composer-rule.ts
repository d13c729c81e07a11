import type { QuotableSentence, SelectionLimits, SentenceUnit } from "./chosen-sentence.js";
import type { ReadQuestion } from "./read-question.js";
import type { Reply } from "./reply-budget.js";

/** The sentences read, once scored by the question's words (the composer's second stage). */
export interface ScoredSentences {
  /** Every scored sentence of the passages read (not skipped, not a heading). */
  scored: readonly QuotableSentence[];
  /** How much a stem of the question counts among the sentences read (0 when none holds it): rarer there, heavier. */
  weightOf(stem: string): number;
  /** The question's stems that some sentence read holds. */
  held: readonly string[];
}

/** What the third stage (selection within the budget) knows while it chooses. */
export interface Selection {
  question: ReadQuestion;
  limits: SelectionLimits;
  /** The sentences read, by passage. */
  sentences: readonly (readonly QuotableSentence[])[];
  /** Every sentence that can be quoted (in a unit of enough words), of any document. */
  candidates: readonly QuotableSentence[];
  /** The document the reply comes from. */
  documentId: number;
  /** The best score among that document's candidates (0: none shares a word with the question). */
  best: number;
  /** The first unit quoted and its text as chosen (before it was fitted to the budget), once there is one. */
  first: { sentence: QuotableSentence; text: string } | null;
  /** What is quoted for a sentence within `budget` characters (see `unitOf`). */
  unitOf(sentence: QuotableSentence, budget: number, minScore?: number): SentenceUnit | null;
}

/**
 * One rule of the extractive composer, named: it acts at one or more of the composer's stages.
 * The rules are data (`COMPOSER_RULES`), applied in their order; each has its own test.
 */
export interface ComposerRule {
  /** A name that says what it does ("read on to the end of the line"). */
  readonly name: string;
  /** Stage 1: changes how the question is read (the words looked for). */
  readQuestion?(question: ReadQuestion): void;
  /** Stage 2: adds to the sentences' scores, once each is scored by the question's words it holds. */
  scoreSentences?(sentences: ScoredSentences, question: ReadQuestion): void;
  /** Stage 2, once the reply's document is chosen: adds to the scores of its sentences (all of them, in passage order). */
  scoreDocument?(sentences: readonly QuotableSentence[], question: ReadQuestion): void;
  /** Stage 3: whether a candidate scoring at least half the best may be quoted. */
  ranks?(candidate: QuotableSentence, selection: Selection): boolean;
  /** Stage 3: whether a unit (its text) may join a reply that already quotes `selection.first`. */
  admits?(text: string, selection: Selection): boolean;
  /** Stage 3: right after the first unit joined the reply (from `passage`, for `candidate`). */
  afterFirst?(reply: Reply, candidate: QuotableSentence, passage: readonly QuotableSentence[], selection: Selection): void;
  /** Stage 3: once the reply's document gave what it could. */
  complete?(reply: Reply, selection: Selection): void;
}
