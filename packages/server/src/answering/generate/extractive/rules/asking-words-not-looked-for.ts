import type { ComposerRule } from "../composer-rule.js";
import { askingStems } from "../read-question.js";

/**
 * The words that ask for a kind of fact ("time" in "what time do you close?", "long" in "how
 * long") are not looked for: a sentence holding "in good time" does not answer "what time".
 */
export const askingWordsNotLookedFor: ComposerRule = {
  name: "the words asking for a kind of fact are not looked for",
  readQuestion(question) {
    for (const { kind } of question.asked) for (const stem of askingStems(kind, question.language)) question.weights.delete(stem);
  },
};
