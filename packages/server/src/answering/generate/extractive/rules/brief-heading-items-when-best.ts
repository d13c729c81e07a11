import type { ComposerRule } from "../composer-rule.js";

/**
 * A list under a heading too short to be a sentence ("Online") is quoted for its best item only
 * when that item is the best answer: otherwise a sentence that reads on its own is preferred.
 */
export const briefHeadingItemsWhenBest: ComposerRule = {
  name: "items under a one-word heading only as the best answer",
  ranks(candidate, selection) {
    return candidate.score === selection.best || selection.unitOf(candidate, selection.limits.maxCharacters)?.members[0]?.brief !== true;
  },
};
