import type { AnswerEvent, AnswerGenerator, AnswerRequest } from "./answer-generator.js";
import { antecedentOf, isFollowUp } from "../retrieve/follow-up.js";
import { detectLanguage } from "../../language/detect-language.js";
import { contentStems, overlap } from "./content-words.js";
import { lowConfidenceReply } from "./low-confidence-reply.js";
import { smallTalkReply } from "../intent/small-talk.js";
import { LIST_MARKER } from "./split-sentences.js";
import { DEFAULT_SELECTION_LIMITS, selectSentences, type ChosenSentence, type SelectionLimits } from "./select-sentences.js";
import { rowWithHeader } from "./table-rows.js";

/** Words with the whitespace before them, so that the tokens add up to the text exactly. */
function wordsOf(text: string): string[] {
  return text.match(/\s*\S+/g) ?? [];
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

/** Sentences of one line are joined by a space, lines of one block by a line break, blocks and documents by a blank line. */
function textOf(chosen: readonly ChosenSentence[]): string {
  const sentences = readable(chosen);
  return sentences
    .map((sentence, index) => {
      const previous = sentences[index - 1];
      if (previous === undefined) return sentence.text;
      const samePassage = previous.passageIndex === sentence.passageIndex;
      // A list stays with its lead-in ("You can pay with:") or heading.
      const sameBlock = samePassage && (previous.block === sentence.block || LIST_MARKER.test(sentence.text));
      const separator = sameBlock ? (previous.line === sentence.line ? " " : "\n") : "\n\n";
      return separator + sentence.text;
    })
    .join("");
}

/** An answer cites at most this many documents: the one it rests on, then the next retrieved ones. */
const MAX_CITATIONS = 3;

/** How many related pages a doubtful reply links. */
const DOUBTFUL_CITATIONS = 2;

/**
 * The documents an extractive answer cites: first the one its sentences come from, then the other
 * retrieved documents in retrieval order (they are where the visitor can read on), at most
 * `MAX_CITATIONS`, always including a second document the answer quotes.
 */
function citationsOf(sentences: readonly ChosenSentence[], request: AnswerRequest): number[] {
  const quoted = [...new Set(sentences.map((sentence) => sentence.documentId))];
  const ranked = [...new Set(request.passages.map((passage) => passage.documentId))];
  const cited = [...quoted];
  for (const documentId of ranked) {
    if (cited.length >= Math.max(MAX_CITATIONS, quoted.length)) break;
    if (!cited.includes(documentId)) cited.push(documentId);
  }
  return cited;
}

/**
 * The pages a doubtful reply offers: the best-ranked documents (at most `DOUBTFUL_CITATIONS`)
 * whose passages share a content word with the question. A nearest vector alone is no evidence
 * of a related page (the hashing embedder always has a nearest one): with none, nothing was found.
 */
function relatedDocuments(request: AnswerRequest): number[] {
  const asked = contentStems(request.question, request.language);
  const related = request.passages.filter((passage) => overlap(asked, contentStems(`${passage.title} ${passage.content}`, request.language)) > 0);
  return [...new Set(related.map((passage) => passage.documentId))].slice(0, DOUBTFUL_CITATIONS);
}

/**
 * What else the sentences are chosen by: for a follow-up that needs it ("And can I get it
 * tomorrow?") the visitor's previous message as retrieval reads it (`antecedentOf`).
 */
function selectionContext(request: AnswerRequest): string | null {
  if (!isFollowUp(request.question, request.language)) return null;
  const earlier = request.history.filter((turn) => turn.role === "visitor").map((turn) => turn.content);
  return antecedentOf(request.question, earlier, request.language) ?? null;
}

/**
 * The default generator: no model, no key, no network. The answer is made of the best sentences
 * of the best document, verbatim and in page order (see `selectSentences`), with no words of its
 * own (a table row is written out with its header's names), streamed word by word; it cites that
 * document first, then the next retrieved ones. When retrieval had low confidence, or the passages
 * hold no usable sentence, it says so honestly in the visitor's language (detected, else the
 * agent's), telling apart "nothing found" from "found only doubtful matches" (and linking those),
 * and offers a person. A message that is only small talk (a greeting, a thank-you, a goodbye, an
 * acknowledgement) is answered in kind, citing nothing, and is not low confidence.
 */
export class ExtractiveAnswerGenerator implements AnswerGenerator {
  readonly id = "extractive";

  constructor(private readonly limits: SelectionLimits = DEFAULT_SELECTION_LIMITS) {}

  async *generate(request: AnswerRequest): AsyncGenerator<AnswerEvent> {
    const visitorLanguage = detectLanguage(request.question, request.language);
    // "hi" or "thanks" is greeted back, whatever retrieval found for it: it asks nothing, so the
    // reply cites nothing and is no gap in the knowledge (not low confidence).
    const smallTalk = smallTalkReply(request.question, { language: visitorLanguage, name: request.persona.name });
    const sentences =
      smallTalk !== null || request.lowConfidence || request.passages.length === 0
        ? []
        : selectSentences(request.question, request.passages, request.language, this.limits, selectionContext(request));
    const lowConfidence = smallTalk === null && sentences.length === 0;
    const related = lowConfidence ? relatedDocuments(request) : [];
    const text = smallTalk ?? (lowConfidence ? lowConfidenceReply(visitorLanguage, related.length === 0 ? "nothing_found" : "doubtful_match") : textOf(sentences));
    // A doubtful reply says it found pages that may be related: it links them rather than leaving
    // the visitor to search for them; the flag stays set.
    const cited = smallTalk !== null ? [] : lowConfidence ? related : citationsOf(sentences, request);

    let sent = 0;
    for (const token of wordsOf(text)) {
      if (request.signal.aborted) break;
      sent += 1;
      yield { type: "token", token };
    }
    // An answer cut off before its first word rests on nothing.
    yield { type: "done", citedDocumentIds: sent === 0 ? [] : cited, lowConfidence, generator: this.id };
  }
}
