/** What the extractive composer reads, weighs and quotes: sentences of the retrieved passages, and the units they are quoted in. */

export interface SelectionLimits {
  /** Only the best passages are read, and every passage of the best one's document. */
  maxPassages: number;
  /** A lead-in with its list, or a table row with its header, counts as one. */
  maxSentences: number;
  /** Of all chosen sentences together, not counting the spaces between them. */
  maxCharacters: number;
}

export const DEFAULT_SELECTION_LIMITS: SelectionLimits = { maxPassages: 3, maxSentences: 3, maxCharacters: 600 };

/** A sentence of a passage, verbatim but for forum lead-ins and a lone list item's marker (a too-long single sentence is cut at a word and ends in `…`). */
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
  /** For a table row, its table's header row (the first row of its block), or null when it is that row. */
  tableHeader?: string | null;
}

/** A sentence of one of the passages read for an answer, as sentence selection sees it (`text`: verbatim, forum lead-ins removed). */
export interface QuotableSentence extends ChosenSentence {
  /**
   * `skip`: a question or boilerplate, never quoted; `heading`: quoted only as the title of the
   * list under it; `lead-in`: a sentence ending in a colon, which announces the list after it;
   * `item` and `row`: a list item's or a table row's.
   */
  kind: "sentence" | "lead-in" | "item" | "row" | "heading" | "skip";
  /** A heading too short to read as a sentence ("Online"): its items are quoted under it only when they cannot stand alone. */
  brief?: true;
  stems: Set<string>;
  /** For a table row under a header row, the header's content stems (the names of its columns). */
  columnStems?: Set<string>;
  /** How much of the question it covers, each word weighed by how rare it is among the sentences read. */
  score: number;
}

/** What is quoted for one chosen sentence: the sentence and what it cannot be read without. */
export interface SentenceUnit {
  /** In page order; list items of a unit without their lead-in have their marker removed. */
  members: QuotableSentence[];
  /** How many sentences the unit counts for: a lead-in with its list, or a header with its row, count as one. */
  sentences: number;
}

/** Sentences that are scored (and may be quoted): not skipped, not headings. */
export function isScored(sentence: QuotableSentence): boolean {
  return sentence.kind !== "skip" && sentence.kind !== "heading";
}
