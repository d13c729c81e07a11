import type { Passage } from "../answer-generator.js";
import { isFurniture, withoutBoilerplate } from "../boilerplate.js";
import { contentStems, words } from "../content-words.js";
import { splitPassage } from "../split-sentences.js";
import type { QuotableSentence, SelectionLimits } from "./chosen-sentence.js";

const QUESTION_END = /[?？؟]["'”’»)\]]*$/u;

/**
 * The composer's second stage: the sentences of the passages read (the best `maxPassages`, and any
 * later one of the best passage's document: the reply comes from that document), each passage's in
 * order, by passage as given (none for a passage not read), each with its kind (sentence, lead-in,
 * list item, table row with its header, heading, or skipped) and content stems, unscored.
 * Duplicates (chunks overlap) are skipped after their first appearance.
 */
export function readPassages(passages: readonly Passage[], language: string, limits: SelectionLimits): QuotableSentence[][] {
  const seen = new Set<string>();
  const bestDocument = passages[0]?.documentId;
  return passages.map((passage, passageIndex) => {
    if (passageIndex >= limits.maxPassages && passage.documentId !== bestDocument) return [];
    const split = splitPassage(passage.content, language);
    // Each table's header row (the first row of its block), with its columns' names read once.
    const headers = new Map<number, { position: number; text: string; stems: Set<string> }>();
    split.forEach((sentence, position) => {
      if (sentence.row && !headers.has(sentence.block)) headers.set(sentence.block, { position, text: sentence.text, stems: contentStems(sentence.text, language) });
    });
    return split.map((sentence, position): QuotableSentence => {
      const base = { passageIndex, position, block: sentence.block, line: sentence.line, documentId: passage.documentId, score: 0 };
      // List items and table rows are kept whole, however short ("- cash", "Saturday | 9:30–17:30"): their list or table is quoted together.
      const text = sentence.item || sentence.row ? sentence.text : withoutBoilerplate(sentence.text);
      const key = words(text ?? "").join(" ");
      // Headings, and questions (an FAQ's questions are its headings), are not answers.
      // A heading too short to be a sentence ("Online") still introduces its list: an item that cannot stand alone is quoted under it.
      if (text === null && sentence.heading && !isFurniture(sentence.text) && !seen.has(key)) {
        seen.add(key);
        return { ...base, text: sentence.text, kind: "heading", brief: true, stems: new Set() };
      }
      if (text === null || QUESTION_END.test(sentence.text) || seen.has(key)) return { ...base, text: sentence.text, kind: "skip", stems: new Set() };
      seen.add(key);
      if (sentence.heading) return { ...base, text, kind: "heading", stems: new Set() };
      const kind = sentence.item ? "item" : sentence.row ? "row" : /[:：]$/u.test(text) ? "lead-in" : "sentence";
      const stems = contentStems(text, language);
      if (kind !== "row") return { ...base, text, kind, stems };
      const header = headers.get(sentence.block);
      if (header === undefined || header.position === position) return { ...base, text, kind, stems, tableHeader: null };
      return { ...base, text, kind, stems, tableHeader: header.text, columnStems: header.stems };
    });
  });
}
