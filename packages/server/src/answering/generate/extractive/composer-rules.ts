import type { ComposerRule } from "./composer-rule.js";
import { askedKindStated } from "./rules/asked-kind-stated.js";
import { askingWordsNotLookedFor } from "./rules/asking-words-not-looked-for.js";
import { briefHeadingItemsWhenBest } from "./rules/brief-heading-items-when-best.js";
import { readOnToEndOfLine } from "./rules/read-on-to-end-of-line.js";
import { secondQuestionFromAnotherDocument } from "./rules/second-question-from-another-document.js";
import { statedKindThroughout } from "./rules/stated-kind-throughout.js";
import { tableRowNamesItsColumns } from "./rules/table-row-names-its-columns.js";

/**
 * The extractive composer's rules, in the order they apply at each stage (see `ComposerRule`).
 * Each is a file of `rules/` with its own test; removing one from this list turns it off.
 */
export const COMPOSER_RULES: readonly ComposerRule[] = [
  askingWordsNotLookedFor,
  tableRowNamesItsColumns,
  askedKindStated,
  briefHeadingItemsWhenBest,
  statedKindThroughout,
  readOnToEndOfLine,
  secondQuestionFromAnotherDocument,
];
