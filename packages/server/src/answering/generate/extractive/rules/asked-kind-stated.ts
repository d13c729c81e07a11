import { holdsKind } from "../../asked-kind.js";
import { isScored, type QuotableSentence } from "../chosen-sentence.js";
import type { ComposerRule } from "../composer-rule.js";
import type { KindAsked, ReadQuestion } from "../read-question.js";

/**
 * When the best sentence does not state the kind of fact a question asks for ("2 years" for "how
 * long", "£35" for "how much"), the one that does and holds most of that question's words (the
 * best scored among equals) counts it as one more of the question's words: as heavy as its most
 * specific one, and weighed like the words by how few of the sentences read state such a fact.
 * The words that ask for it are not looked for (see `askingWordsNotLookedFor`), so without this a
 * sentence about the warranty in general beats the row that says how long it lasts. One sentence
 * only: a table's other rows do not come along with the one that answers.
 */
export const askedKindStated: ComposerRule = {
  name: "the sentence stating the kind of fact asked for counts",
  scoreDocument(sentences, question) {
    for (const asked of question.asked) scoreAskedKind(sentences, asked, question);
  },
};

function scoreAskedKind(sentences: readonly QuotableSentence[], asked: KindAsked, question: ReadQuestion): void {
  const { weights, language } = question;
  if (weights.size === 0) return;
  const read = sentences.filter(isScored);
  const best = read.reduce<QuotableSentence | undefined>((top, sentence) => (top === undefined || sentence.score > top.score ? sentence : top), undefined);
  if (best === undefined || best.score === 0 || holdsKind(best.text, asked.kind, language)) return;
  const shared = (sentence: QuotableSentence): number => [...asked.stems].filter((stem) => sentence.stems.has(stem)).length;
  const stating = read.filter((sentence) => shared(sentence) > 0 && holdsKind(sentence.text, asked.kind, language));
  // The one holding most of the question's words ("a full charge takes four hours" for "how long does a full battery charge take"), then the best scored.
  const closer = (a: QuotableSentence, b: QuotableSentence): boolean => shared(a) > shared(b) || (shared(a) === shared(b) && a.score > b.score);
  const chosen = stating.reduce<QuotableSentence | undefined>((top, sentence) => (top === undefined || closer(sentence, top) ? sentence : top), undefined);
  if (chosen === undefined) return;
  chosen.score += Math.max(...weights.values()) * Math.log(1 + read.length / stating.length);
}
