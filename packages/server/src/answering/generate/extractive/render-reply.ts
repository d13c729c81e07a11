import type { Passage } from "../answer-generator.js";
import { LIST_MARKER } from "../split-sentences.js";
import { rowWithHeader } from "../table-rows.js";
import type { ChosenSentence } from "./chosen-sentence.js";
import { byPageOrder, type SelectedUnits } from "./select-units.js";

/**
 * The composer's last stage, first half: the chosen sentences in reading order, the reply's
 * document first, each document's in page order, verbatim (a table row with its header).
 */
export function inReadingOrder(selected: SelectedUnits, passages: readonly Passage[]): ChosenSentence[] {
  const inPageOrder = byPageOrder(passages);
  return selected.reply.units
    .flatMap((unit) => unit.members)
    .sort((a, b) => (a.documentId === b.documentId ? inPageOrder(a, b) : a.documentId === selected.documentId ? -1 : 1))
    .map(({ passageIndex, position, block, line, documentId, text, tableHeader }) =>
      tableHeader === undefined ? { passageIndex, position, block, line, documentId, text } : { passageIndex, position, block, line, documentId, text, tableHeader },
    );
}

/**
 * A table's rows are written out with their columns' names ("Carbon frames: 5 years"), and its
 * header row then goes without saying; a row the header does not fit stays as written.
 */
function readable(sentences: readonly ChosenSentence[]): ChosenSentence[] {
  const written = sentences.map((sentence) => (sentence.tableHeader ? rowWithHeader(sentence.tableHeader, sentence.text) : null));
  const spelledOut = (header: ChosenSentence) =>
    sentences.some((row, index) => written[index] !== null && row.tableHeader === header.text && row.passageIndex === header.passageIndex && row.block === header.block);
  return sentences.flatMap((sentence, index) => {
    if (sentence.tableHeader === null && spelledOut(sentence)) return [];
    const text = written[index] ?? null;
    return [text === null ? sentence : { ...sentence, text }];
  });
}

/**
 * The composer's last stage, second half: the reply's text. Sentences of one line are joined by a
 * space, lines of one block by a line break, blocks and documents by a blank line; a list stays
 * with its lead-in or heading; table rows are written out with their columns' names.
 */
export function renderReply(chosen: readonly ChosenSentence[]): string {
  const sentences = readable(chosen);
  return sentences
    .map((sentence, index) => {
      const previous = sentences[index - 1];
      if (previous === undefined) return sentence.text;
      const samePassage = previous.passageIndex === sentence.passageIndex;
      const sameBlock = samePassage && (previous.block === sentence.block || LIST_MARKER.test(sentence.text));
      const separator = sameBlock ? (previous.line === sentence.line ? " " : "\n") : "\n\n";
      return separator + sentence.text;
    })
    .join("");
}
