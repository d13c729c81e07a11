import type { Passage } from "./answer-generator.js";
import { withoutBoilerplate } from "./boilerplate.js";
import { contentStems, overlap, words } from "./content-words.js";
import { splitPassage } from "./split-sentences.js";

export interface SelectionLimits {
  /** Only the best passages are read. */
  maxPassages: number;
  maxSentences: number;
  /** Of all chosen sentences together, not counting the spaces between them. */
  maxCharacters: number;
}

export const DEFAULT_SELECTION_LIMITS: SelectionLimits = { maxPassages: 3, maxSentences: 3, maxCharacters: 600 };

/** A sentence of a passage, verbatim but for forum lead-ins (a too-long single sentence is cut at a word and ends in `…`). */
export interface ChosenSentence {
  /** Index in the request's passages (0 = best). */
  passageIndex: number;
  /** Index of the sentence within its passage. */
  position: number;
  /** Block (between blank lines) and line of the sentence in its passage. */
  block: number;
  line: number;
  documentId: number;
  text: string;
}

interface Candidate extends ChosenSentence {
  score: number;
  stems: Set<string>;
}

/** Sentences of fewer words are labels or navigation, not answers. */
const MIN_WORDS = 4;
/** Without any shared word, the best document's first sentences stand for it. */
const UNMATCHED_SENTENCES = 2;

function candidatesOf(wanted: ReadonlySet<string>, passages: readonly Passage[], language: string, limits: SelectionLimits): Candidate[] {
  const seen = new Set<string>();
  const candidates: Candidate[] = [];
  passages.slice(0, limits.maxPassages).forEach((passage, passageIndex) => {
    splitPassage(passage.content, language).forEach((sentence, position) => {
      // Headings, and questions (an FAQ's questions are its headings), are not answers.
      if (sentence.heading || /[?？]["'”’»)\]]*$/u.test(sentence.text)) return;
      const text = withoutBoilerplate(sentence.text);
      if (text === null || words(text).length < MIN_WORDS) return;
      const key = words(text).join(" ");
      if (seen.has(key)) return;
      seen.add(key);
      const stems = contentStems(text, language);
      candidates.push({ passageIndex, position, block: sentence.block, line: sentence.line, documentId: passage.documentId, text, score: overlap(wanted, stems), stems });
    });
  });
  return candidates;
}

/** Page order: passages of one document in the order retrieval gave them, sentences as written. */
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

/** A message asking two things ("Do you ship to Germany? How much is it?") may need a second document. */
function asksSeveralThings(question: string): boolean {
  return (question.match(/[?？]/gu) ?? []).length >= 2;
}

/**
 * Chooses the sentences an extractive answer is made of, from the best document only: the
 * document of the best-ranked passage holding a sentence that shares a content word with the
 * question (retrieval's order decides, not lexical overlap); its sentences sharing at least half
 * as many content words as its best one, best first, up to the limits; then back in page order.
 * Questions in the page (an FAQ's headings) are never quoted.
 * One sentence of another document is added only when the message asks several things and that
 * sentence covers words of it the first document's sentences do not. Headings, labels and forum
 * boilerplate are never chosen. When no sentence shares a word with the question, the best
 * document's first sentences are used. Pure and deterministic.
 */
export function selectSentences(
  question: string,
  passages: readonly Passage[],
  language: string,
  limits: SelectionLimits = DEFAULT_SELECTION_LIMITS,
): ChosenSentence[] {
  const wanted = contentStems(question, language);
  const candidates = candidatesOf(wanted, passages, language, limits);
  const main = candidates.find((candidate) => candidate.score > 0) ?? candidates[0];
  if (main === undefined) return [];
  const own = candidates.filter((candidate) => candidate.documentId === main.documentId);
  const best = own.reduce((top, candidate) => Math.max(top, candidate.score), 0);
  const ranked =
    best === 0
      ? own.slice(0, UNMATCHED_SENTENCES)
      : own.filter((candidate) => candidate.score > 0 && candidate.score >= best / 2).sort((a, b) => b.score - a.score || byReadingOrder(a, b));

  const chosen: Candidate[] = [];
  let characters = 0;
  const take = (candidate: Candidate): boolean => {
    if (chosen.length >= limits.maxSentences) return false;
    if (chosen.length === 0) {
      const text = shorten(candidate.text, limits.maxCharacters);
      chosen.push({ ...candidate, text });
      characters = text.length;
      return true;
    }
    if (characters + candidate.text.length > limits.maxCharacters) return false;
    chosen.push(candidate);
    characters += candidate.text.length;
    return true;
  };
  for (const candidate of ranked) take(candidate);

  if (best > 0 && asksSeveralThings(question)) {
    const covered = new Set(chosen.flatMap((sentence) => [...sentence.stems]));
    const missing = new Set([...wanted].filter((stem) => !covered.has(stem)));
    const second = candidates
      .filter((candidate) => candidate.documentId !== main.documentId && overlap(missing, candidate.stems) > 0)
      .sort((a, b) => overlap(missing, b.stems) - overlap(missing, a.stems) || byReadingOrder(a, b))[0];
    if (second !== undefined && chosen.length >= limits.maxSentences) chosen.pop();
    if (second !== undefined) take(second);
  }
  return chosen
    .sort((a, b) => (a.documentId === b.documentId ? byReadingOrder(a, b) : a.documentId === main.documentId ? -1 : 1))
    .map(({ passageIndex, position, block, line, documentId, text }) => ({ passageIndex, position, block, line, documentId, text }));
}
