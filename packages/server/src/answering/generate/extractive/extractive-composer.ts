import type { Passage } from "../answer-generator.js";
import { DEFAULT_SELECTION_LIMITS, type ChosenSentence, type SelectionLimits } from "./chosen-sentence.js";
import type { ComposerRule } from "./composer-rule.js";
import { COMPOSER_RULES } from "./composer-rules.js";
import { readPassages } from "./read-passages.js";
import { readQuestion } from "./read-question.js";
import { inReadingOrder } from "./render-reply.js";
import { scoreSentences } from "./score-sentences.js";
import { selectUnits } from "./select-units.js";

/**
 * Chooses the sentences an extractive answer is made of, in four stages: read (the question, and
 * the passages' sentences: `readQuestion`, `readPassages`), score (`scoreSentences`), select
 * within the limits (`selectUnits`), and put in reading order (`inReadingOrder`). Headings (but
 * as a list's title), questions in the page, labels and forum boilerplate are never quoted.
 * `context` (the previous message, for an elliptical follow-up) adds words to look for, but asks
 * nothing of its own. `rules` (default `COMPOSER_RULES`) act at each stage. Pure and deterministic.
 */
export function selectSentences(
  question: string,
  passages: readonly Passage[],
  language: string,
  limits: SelectionLimits = DEFAULT_SELECTION_LIMITS,
  context: string | null = null,
  rules: readonly ComposerRule[] = COMPOSER_RULES,
): ChosenSentence[] {
  const read = readQuestion(question, language, context);
  for (const rule of rules) rule.readQuestion?.(read);
  const sentences = readPassages(passages, language, limits);
  scoreSentences(sentences, read, rules);
  const selected = selectUnits(sentences, read, limits, rules);
  return selected === null ? [] : inReadingOrder(selected, passages);
}
