import type { AnswerEvent, AnswerGenerator, AnswerJudgement, AnswerRequest } from "./answer-generator.js";
import { antecedentOf, isFollowUp } from "../retrieve/follow-up.js";
import { detectLanguage } from "../../language/detect-language.js";
import { contentStems, overlap } from "./content-words.js";
import { languagePackFor } from "../../language/language-packs.js";
import { lowConfidenceReply } from "./low-confidence-reply.js";
import { pageName } from "./page-name.js";
import { DEFAULT_SELECTION_LIMITS, type ChosenSentence, type SelectionLimits } from "./extractive/chosen-sentence.js";
import { selectSentences } from "./extractive/extractive-composer.js";
import { renderNamedReply } from "./extractive/render-named-reply.js";

/** Words with the whitespace before them, so that the tokens add up to the text exactly. */
function wordsOf(text: string): string[] {
  return text.match(/\s*\S+/g) ?? [];
}

/** How much an extractive reply quotes for each answer length of the agent's instructions (`medium` is the default). */
const LIMITS_BY_LENGTH = {
  short: { maxSentences: 1, maxCharacters: 300 },
  long: { maxSentences: 6, maxCharacters: 1200 },
} as const;

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

/** Why the reply is sure or not, and what it says. */
function judge(request: AnswerRequest, sentences: readonly ChosenSentence[]): AnswerJudgement {
  if (request.passages.length === 0) return "nothing_retrieved";
  if (request.lowConfidence) return "retrieval_unsure";
  return sentences.length === 0 ? "no_answering_sentence" : "answered";
}

/**
 * The default generator: no model, no key, no network. The answer is made of the best sentences
 * of the best document, verbatim and in page order (see `selectSentences`), with no words of its
 * own (a table row is written out with its header's names) but the name of the page it quotes
 * ("From our Returns page: …", `renderNamedReply`, in the agent's language), streamed word by word; it cites that document
 * first, then the next retrieved ones. When retrieval had low confidence, or the passages hold no
 * usable sentence, nothing is quoted as an answer: the pages that may be related are offered by
 * name for the visitor to judge ("This page may help: Returns", and linked), or it says nothing
 * was found, in the visitor's language (detected, else the agent's), and offers a person either
 * way. (Small talk never reaches it: `answerTurn` answers it first, whatever the generator.)
 */
export class ExtractiveAnswerGenerator implements AnswerGenerator {
  readonly id = "extractive";

  constructor(private readonly limits: SelectionLimits = DEFAULT_SELECTION_LIMITS) {}

  async *generate(request: AnswerRequest): AsyncGenerator<AnswerEvent> {
    const visitorLanguage = detectLanguage(request.question, request.language);
    const sentences =
      request.lowConfidence || request.passages.length === 0
        ? []
        : selectSentences(request.question, request.passages, request.language, this.limitsFor(request), selectionContext(request));
    const judgement = judge(request, sentences);
    const lowConfidence = judgement !== "answered";
    const related = lowConfidence ? relatedDocuments(request) : [];
    const text = lowConfidence
      ? lowConfidenceReply(visitorLanguage, related.length === 0 ? "nothing_found" : "doubtful_match", related.map((documentId) => nameOf(documentId, request)))
      : // The lead is in the agent's language, as the quote is in its pages' (a misread short question must not mix two).
        renderNamedReply(sentences, request.passages, languagePackFor(request.language).pageReplies.quoting);
    // A doubtful reply offers the pages that may be related by name and links them rather than
    // leaving the visitor to search for them; the flag stays set.
    const cited = lowConfidence ? related : citationsOf(sentences, request);

    let sent = 0;
    for (const token of wordsOf(text)) {
      if (request.signal.aborted) break;
      sent += 1;
      yield { type: "token", token };
    }
    // An answer cut off before its first word rests on nothing.
    yield { type: "done", citedDocumentIds: sent === 0 ? [] : cited, lowConfidence, judgement: sent === 0 ? "interrupted" : judgement, generator: this.id };
  }

  private limitsFor(request: AnswerRequest): SelectionLimits {
    const length = request.instructions?.length;
    return length === undefined || length === "medium" ? this.limits : { ...this.limits, ...LIMITS_BY_LENGTH[length] };
  }
}

/** How a reply offers a retrieved document: by its name (see `pageName`), else by its address. */
function nameOf(documentId: number, request: AnswerRequest): string {
  const passage = request.passages.find((candidate) => candidate.documentId === documentId);
  return passage === undefined ? "" : (pageName(passage, request.passages) ?? passage.url);
}
