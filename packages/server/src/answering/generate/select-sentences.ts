import type { Passage } from "./answer-generator.js";
import { contentStems, overlap, words } from "./content-words.js";
import { splitSentences } from "./split-sentences.js";

export interface SelectionLimits {
  /** Only the best passages are read. */
  maxPassages: number;
  maxSentences: number;
  /** Of all chosen sentences together, not counting the spaces between them. */
  maxCharacters: number;
}

export const DEFAULT_SELECTION_LIMITS: SelectionLimits = { maxPassages: 3, maxSentences: 4, maxCharacters: 600 };

/** A sentence of a passage, verbatim (a too-long single sentence is cut at a word and ends in `…`). */
export interface ChosenSentence {
  /** Index in the request's passages (0 = best). */
  passageIndex: number;
  /** Index of the sentence within its passage. */
  position: number;
  documentId: number;
  text: string;
}

interface Candidate extends ChosenSentence {
  score: number;
}

/** Sentences of fewer words are headings, labels or navigation, not answers. */
const MIN_WORDS = 4;
/** The top passage wins ties: retrieval ranked it first for a reason lexical overlap can't see. */
const TOP_PASSAGE_BONUS = 0.5;
/** Without any shared word, the top passage's first sentences stand for it. */
const UNMATCHED_SENTENCES = 2;

function candidatesOf(question: string, passages: readonly Passage[], language: string, limits: SelectionLimits): Candidate[] {
  const wanted = contentStems(question, language);
  const seen = new Set<string>();
  const candidates: Candidate[] = [];
  passages.slice(0, limits.maxPassages).forEach((passage, passageIndex) => {
    splitSentences(passage.content, language).forEach((text, position) => {
      const key = words(text).join(" ");
      if (words(text).length < MIN_WORDS || seen.has(key)) return;
      seen.add(key);
      const shared = overlap(wanted, contentStems(text, language));
      const score = shared === 0 ? 0 : shared + (passageIndex === 0 ? TOP_PASSAGE_BONUS : 0);
      candidates.push({ passageIndex, position, documentId: passage.documentId, text, score });
    });
  });
  return candidates;
}

function byReadingOrder(a: ChosenSentence, b: ChosenSentence): number {
  return a.passageIndex - b.passageIndex || a.position - b.position;
}

/** Cuts a sentence at the last word boundary that fits, marking the cut. */
function shorten(text: string, maxCharacters: number): string {
  if (text.length <= maxCharacters) return text;
  const cut = text.slice(0, maxCharacters - 1);
  const boundary = cut.search(/\s+\S*$/);
  return `${(boundary > 0 ? cut.slice(0, boundary) : cut).trimEnd()}…`;
}

/**
 * Chooses the sentences an extractive answer is made of: those sharing the most content words
 * with the question (only those sharing at least half as many as the best one), the top passage
 * winning ties, up to the limits; then puts them back in reading order, top passage first.
 * When no sentence shares a word with the question, the top passage's first sentences are used.
 * Pure and deterministic: the same input always gives the same sentences.
 */
export function selectSentences(
  question: string,
  passages: readonly Passage[],
  language: string,
  limits: SelectionLimits = DEFAULT_SELECTION_LIMITS,
): ChosenSentence[] {
  const candidates = candidatesOf(question, passages, language, limits);
  const best = candidates.reduce((top, candidate) => Math.max(top, candidate.score), 0);
  const ranked =
    best === 0
      ? candidates.filter((candidate) => candidate.passageIndex === 0).slice(0, UNMATCHED_SENTENCES)
      : candidates
          .filter((candidate) => candidate.score >= best / 2)
          .sort((a, b) => b.score - a.score || byReadingOrder(a, b));

  const chosen: ChosenSentence[] = [];
  let characters = 0;
  for (const { passageIndex, position, documentId, text } of ranked) {
    if (chosen.length >= limits.maxSentences) break;
    if (chosen.length === 0) {
      const first = shorten(text, limits.maxCharacters);
      chosen.push({ passageIndex, position, documentId, text: first });
      characters = first.length;
    } else if (characters + text.length <= limits.maxCharacters) {
      chosen.push({ passageIndex, position, documentId, text });
      characters += text.length;
    }
  }
  return chosen.sort(byReadingOrder);
}
