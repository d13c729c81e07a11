import { languagePackFor } from "../../../language/language-packs.js";
import { LIST_MARKER } from "../split-sentences.js";
import type { QuotableSentence, SentenceUnit } from "./chosen-sentence.js";

/** Ends like a sentence (in the widget's languages). */
const SENTENCE_END = /[.!?…。！？؟]["'”’»)\]]*$/u;

function lengthOf(members: readonly QuotableSentence[]): number {
  return members.reduce((sum, member) => sum + member.text.length, 0);
}

/** A list item that reads as a sentence of its own ("- Unplug the charger once the battery is full."), without its marker. */
function asSentence(item: QuotableSentence): QuotableSentence | null {
  const text = item.text.replace(LIST_MARKER, "");
  if (!/^[\p{Lu}\p{N}"'“‘«(]/u.test(text) || !SENTENCE_END.test(text)) return null;
  return { ...item, text };
}

/**
 * A list with what introduces it, within `budget`: after a lead-in, all its items if they fit;
 * under a heading, or when they do not fit, the items scoring at least `minScore`, each whole.
 */
function listUnit(leadIn: QuotableSentence, items: readonly QuotableSentence[], budget: number, minScore: number): SentenceUnit | null {
  if (items.length === 0) return null;
  const all = [leadIn, ...items];
  if (leadIn.kind === "lead-in" && lengthOf(all) <= budget) return { members: all, sentences: 1 };
  const members = [leadIn];
  for (const item of items) {
    if (members.includes(item) || item.score <= 0 || item.score < minScore) continue;
    // An item of several sentences comes whole: "Once the bike arrives, …" means little without "- Finance: pre-orders can't be bought on finance."
    const whole = items.filter((other) => other.line === item.line);
    if (lengthOf(members) + lengthOf(whole) <= budget) members.push(...whole);
  }
  return members.length === 1 ? null : { members, sentences: 1 };
}

/** The item sentences following `index` in its list (one block of item lines). */
function itemsAfter(sentences: readonly QuotableSentence[], index: number): QuotableSentence[] {
  const items: QuotableSentence[] = [];
  const first = sentences[index + 1];
  for (let at = index + 1; at < sentences.length; at += 1) {
    const next = sentences[at];
    if (next === undefined || next.kind !== "item" || next.block !== first?.block) break;
    items.push(next);
  }
  return items;
}

/**
 * What is quoted for `sentences[index]` within `budget` characters, or null when it cannot be
 * quoted so: a lead-in ("You can pay with:") comes with its list and a list item with its lead-in
 * or heading ("What we won't match"), a partial list leaving out items scoring under `minScore`
 * (or alone, without its marker, when it reads as a sentence); a table row comes with the table's
 * header row, which is never quoted alone; a sentence or a lead-in opening with a back-reference
 * ("It takes 3 days.", "It must:") comes with the sentence before it in its paragraph when both fit.
 */
export function unitOf(sentences: readonly QuotableSentence[], index: number, budget: number, language: string, minScore = 0): SentenceUnit | null {
  const sentence = sentences[index];
  if (sentence === undefined || sentence.kind === "skip" || sentence.kind === "heading") return null;
  switch (sentence.kind) {
    case "lead-in":
      return withAntecedent(sentences, index, listUnit(sentence, itemsAfter(sentences, index), budget, minScore), budget, language);
    case "item": {
      let start = index;
      while (sentences[start - 1]?.kind === "item" && sentences[start - 1]?.block === sentence.block) start -= 1;
      const leadIn = sentences[start - 1];
      const alone = asSentence(sentence);
      if (leadIn?.kind === "lead-in" || (leadIn?.kind === "heading" && (leadIn.brief !== true || alone === null)))
        return withAntecedent(sentences, start - 1, listUnit(leadIn, itemsAfter(sentences, start - 1), budget, minScore), budget, language);
      return alone === null ? null : { members: [alone], sentences: 1 };
    }
    case "row": {
      // A table's header row names its columns and answers nothing alone ("Brookfield, Ashcombe, Westbury | Elmford").
      if (sentence.tableHeader === null)
        return sentences.some((other) => other !== sentence && other.block === sentence.block && other.kind === "row") ? null : { members: [sentence], sentences: 1 };
      // The header as `sentencesOf` found it; absent when it was skipped (a duplicate of an earlier passage's).
      const header = sentences.find((other) => other.block === sentence.block && other.kind === "row" && other.tableHeader === null);
      const members = header !== undefined && header.text.length + sentence.text.length <= budget ? [header, sentence] : [sentence];
      return { members, sentences: 1 };
    }
    case "sentence":
      return withAntecedent(sentences, index, { members: [sentence], sentences: 1 }, budget, language);
  }
}

/**
 * A unit opening with a back-reference ("It takes 3 days.", "It must:") comes with the sentence
 * before it in its paragraph, when both fit within `budget`: they count as one sentence more.
 */
function withAntecedent(sentences: readonly QuotableSentence[], index: number, unit: SentenceUnit | null, budget: number, language: string): SentenceUnit | null {
  const opening = sentences[index];
  const previous = sentences[index - 1];
  if (unit === null || opening === undefined || unit.members[0] !== opening) return unit;
  if (!languagePackFor(language).backReference.test(opening.text) || previous?.kind !== "sentence" || previous.block !== opening.block) return unit;
  if (previous.text.length + lengthOf(unit.members) > budget) return unit;
  return { members: [previous, ...unit.members], sentences: unit.sentences + 1 };
}

/** The sentence right after `sentences[index]` in its paragraph line, which a person quoting it would often read on to. */
export function continuationOf(sentences: readonly QuotableSentence[], index: number): QuotableSentence | null {
  const sentence = sentences[index];
  const next = sentences[index + 1];
  if (sentence?.kind !== "sentence" || next?.kind !== "sentence" || next.line !== sentence.line) return null;
  return next;
}
