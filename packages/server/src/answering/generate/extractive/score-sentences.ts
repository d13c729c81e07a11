import type { ComposerRule, ScoredSentences } from "./composer-rule.js";
import { isScored, type QuotableSentence } from "./chosen-sentence.js";
import type { ReadQuestion } from "./read-question.js";

/**
 * The composer's second stage: scores every sentence read by the question's words it holds, each
 * weighed by how specific it is in general language (the question's weights) and by how few of
 * the sentences read hold it (a word on every line of the page says little); then the rules add
 * their part (`scoreSentences`).
 */
export function scoreSentences(sentences: readonly (readonly QuotableSentence[])[], question: ReadQuestion, rules: readonly ComposerRule[]): void {
  const wanted = question.weights;
  const scored = sentences.flat().filter(isScored);
  const holding = new Map<string, number>();
  for (const sentence of scored) for (const stem of sentence.stems) if (wanted.has(stem)) holding.set(stem, (holding.get(stem) ?? 0) + 1);
  const weightOf = (stem: string): number => {
    const count = holding.get(stem);
    return count === undefined ? 0 : (wanted.get(stem) ?? 0) * Math.log(1 + scored.length / count);
  };
  for (const sentence of scored) {
    sentence.score = 0;
    for (const stem of holding.keys()) if (sentence.stems.has(stem)) sentence.score += weightOf(stem);
  }
  const read: ScoredSentences = { scored, weightOf, held: [...holding.keys()] };
  for (const rule of rules) rule.scoreSentences?.(read, question);
}
