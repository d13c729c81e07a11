import type { AnswerEvent, AnswerGenerator, AnswerRequest } from "./answer-generator.js";
import { contentStems } from "./content-words.js";
import { lowConfidenceReply } from "./low-confidence-reply.js";
import { smallTalkReply } from "./small-talk.js";
import { DEFAULT_SELECTION_LIMITS, selectSentences, type ChosenSentence, type SelectionLimits } from "./select-sentences.js";

interface Token {
  token: string;
  /** The document the token's sentence comes from; null for the low-confidence reply. */
  documentId: number | null;
}

/** Words with the whitespace before them, so that the tokens add up to the text exactly. */
function wordsOf(text: string): string[] {
  return text.match(/\s*\S+/g) ?? [];
}

/** Sentences of one passage are joined by a space, passages by a blank line. */
function tokensOf(sentences: readonly ChosenSentence[]): Token[] {
  const tokens: Token[] = [];
  sentences.forEach((sentence, index) => {
    const previous = sentences[index - 1];
    const separator = previous === undefined ? "" : previous.passageIndex === sentence.passageIndex ? " " : "\n\n";
    for (const word of wordsOf(separator + sentence.text)) tokens.push({ token: word, documentId: sentence.documentId });
  });
  return tokens;
}

/** A follow-up with fewer content words than this is read together with the visitor's previous message. */
const FOLLOW_UP_MAX_CONTENT_WORDS = 1;

/**
 * What the sentences are chosen by: the question, and for an elliptical follow-up ("And can I get
 * it tomorrow?") the visitor's previous message too, as retrieval already does.
 */
function selectionText(request: AnswerRequest): string {
  if (contentStems(request.question, request.language).size > FOLLOW_UP_MAX_CONTENT_WORDS) return request.question;
  const previous = request.history.findLast((turn) => turn.role === "visitor");
  return previous === undefined ? request.question : `${previous.content}\n${request.question}`;
}

/**
 * The default generator: no model, no key, no network. The answer is made of the best sentences
 * of the top passages, verbatim and in reading order (see `selectSentences`), with no words of
 * its own, streamed word by word. When retrieval had low confidence, or the passages hold no
 * usable sentence, it says so honestly in the agent's language and offers a person — unless the
 * message was only a greeting, a thank-you or a goodbye, which it answers in kind.
 */
export class ExtractiveAnswerGenerator implements AnswerGenerator {
  readonly id = "extractive";

  constructor(private readonly limits: SelectionLimits = DEFAULT_SELECTION_LIMITS) {}

  async *generate(request: AnswerRequest): AsyncGenerator<AnswerEvent> {
    const sentences =
      request.lowConfidence || request.passages.length === 0
        ? []
        : selectSentences(selectionText(request), request.passages, request.language, this.limits);
    const lowConfidence = sentences.length === 0;
    // "hi" or "thanks" with nothing to cite is greeted back rather than told "not found" (the flag
    // stays as retrieval set it: nothing grounds the reply).
    const unsureReply = lowConfidence
      ? (smallTalkReply(request.question, { language: request.language, name: request.persona.name }) ?? lowConfidenceReply(request.language))
      : "";
    const tokens = lowConfidence ? wordsOf(unsureReply).map((token) => ({ token, documentId: null })) : tokensOf(sentences);

    const cited: number[] = [];
    for (const { token, documentId } of tokens) {
      if (request.signal.aborted) break;
      if (documentId !== null && !cited.includes(documentId)) cited.push(documentId);
      yield { type: "token", token };
    }
    yield { type: "done", citedDocumentIds: cited, lowConfidence, generator: this.id };
  }
}
