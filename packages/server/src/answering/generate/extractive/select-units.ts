import type { Passage } from "../answer-generator.js";
import { words } from "../content-words.js";
import type { QuotableSentence, SelectionLimits } from "./chosen-sentence.js";
import type { ComposerRule, Selection } from "./composer-rule.js";
import type { ReadQuestion } from "./read-question.js";
import { Reply } from "./reply-budget.js";
import { unitOf } from "./sentence-units.js";

/** Units of fewer words are labels or navigation, not answers. */
const MIN_WORDS = 4;
/** Without any shared word, the best document's first sentences stand for it. */
const UNMATCHED_SENTENCES = 2;

/** What the third stage chose: the reply's units and the document it comes from. */
export interface SelectedUnits {
  reply: Reply;
  documentId: number;
}

/**
 * The composer's third stage: chooses what the reply quotes, within the limits. The document is
 * the one of the best-ranked passage holding a sentence that shares a content word with the
 * question (retrieval's order decides), even when that sentence cannot be quoted (a lead-in whose
 * list the chunk cut off); once it is chosen the rules may add to its sentences' scores
 * (`scoreDocument`). Its sentences scoring at least half the best (and that the rules rank) are
 * taken best first, each with what it cannot be read without (a list's lead-in or heading, a
 * table's header, the sentence a back-reference points to; see `unitOf`), while they fit and the
 * rules admit them; with no shared word, its first sentences. Then the rules may complete the
 * reply (`complete`). Null when nothing can be quoted.
 */
export function selectUnits(
  sentences: readonly (readonly QuotableSentence[])[],
  question: ReadQuestion,
  limits: SelectionLimits,
  rules: readonly ComposerRule[],
): SelectedUnits | null {
  const { language } = question;
  const unitFor = (sentence: QuotableSentence, budget: number, minScore?: number) => unitOf(sentences[sentence.passageIndex] ?? [], sentence.position, budget, language, minScore);
  const quotable = (sentence: QuotableSentence): boolean => {
    const unit = unitFor(sentence, limits.maxCharacters);
    return unit !== null && words(unit.members.map((member) => member.text).join(" ")).length >= MIN_WORDS;
  };
  const all = sentences.flat();
  const candidates = all.filter(quotable);
  const quotableDocuments = new Set(candidates.map((candidate) => candidate.documentId));
  const main = all.find((sentence) => sentence.score > 0 && quotableDocuments.has(sentence.documentId)) ?? candidates[0];
  if (main === undefined) return null;
  const own = candidates.filter((candidate) => candidate.documentId === main.documentId);
  const ownSentences = all.filter((sentence) => sentence.documentId === main.documentId);
  for (const rule of rules) rule.scoreDocument?.(ownSentences, question);
  const best = Math.max(...own.map((candidate) => candidate.score));
  const selection: Selection = { question, limits, sentences, candidates, documentId: main.documentId, best, first: null, unitOf: unitFor };
  const ranked =
    best === 0
      ? own.slice(0, UNMATCHED_SENTENCES)
      : own.filter((candidate) => candidate.score >= best / 2 && rules.every((rule) => rule.ranks?.(candidate, selection) ?? true)).sort((a, b) => b.score - a.score);

  const reply = new Reply(limits);
  for (const candidate of ranked) {
    if (reply.full) break;
    const unit = unitFor(candidate, reply.room, best / 2);
    if (unit === null) continue;
    const text = unit.members.map((member) => member.text).join(" ");
    if (selection.first !== null && !rules.every((rule) => rule.admits?.(text, selection) ?? true)) continue;
    if (!reply.add(unit) || reply.units.length > 1) continue;
    selection.first = { sentence: candidate, text };
    for (const rule of rules) rule.afterFirst?.(reply, candidate, sentences[candidate.passageIndex] ?? [], selection);
  }
  for (const rule of rules) rule.complete?.(reply, selection);
  return { reply, documentId: main.documentId };
}

/** Page order: passages of one document by their place in it when retrieval tells it, else in retrieval order; sentences as written. */
export function byPageOrder(passages: readonly Passage[]): (a: QuotableSentence, b: QuotableSentence) => number {
  return (a, b) => {
    const first = passages[a.passageIndex]?.chunkIndex;
    const second = passages[b.passageIndex]?.chunkIndex;
    const byPassage = first !== undefined && second !== undefined ? first - second : a.passageIndex - b.passageIndex;
    return byPassage || a.position - b.position;
  };
}
