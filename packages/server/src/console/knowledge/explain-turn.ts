import type { TryQuestionResponse } from "@frontdesk/contracts";
import type { TurnDecision } from "../../answering/answer-turn.js";
import { contentStems, words } from "../../answering/generate/content-words.js";
import type { RetrievedPassage } from "../../answering/retrieve/retrieve-hybrid.js";
import { stageOf, type StageRecord, type TurnTrace } from "../../answering/turn-trace.js";

type Tried = TryQuestionResponse["data"];
type Step = Tried["steps"][number];

/** `“Battery care”`, or the page's address when it has no title. */
const pageName = (passage: { title: string; url: string }): string => `“${passage.title.trim() || passage.url}”`;

/** "a", "a and b", "a, b and c". */
function listed(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

const quoted = (items: readonly string[]): string => listed(items.map((item) => `“${item}”`));

/** The words of a question as it writes them. */
const writtenWords = (question: string): string[] => question.match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];

/** The question's words that a text holds (by the stems answering compares), as the question writes them, each once. */
export function matchedWords(question: string, text: string, language: string): string[] {
  const held = contentStems(text, language);
  const seen = new Set<string>();
  return writtenWords(question).filter((word) => {
    const [stem] = contentStems(word, language);
    if (stem === undefined || !held.has(stem) || seen.has(stem)) return false;
    seen.add(stem);
    return true;
  });
}

/**
 * The question's words behind the lexemes the knowledge never uses, as the question writes them:
 * Postgres stems a word by cutting its ending ("helicopt" for "helicopter", "deliveri" for "delivery").
 */
export function unknownWords(question: string, lexemes: readonly string[]): string[] {
  const found = new Set<string>();
  for (const lexeme of lexemes) {
    const word = writtenWords(question).find((written) => {
      const [folded = ""] = words(written);
      return folded.startsWith(lexeme) || (lexeme.endsWith("i") && folded.startsWith(lexeme.slice(0, -1)));
    });
    if (word !== undefined) found.add(word);
  }
  return [...found];
}

const confidenceWords = (record: Extract<StageRecord, { stage: "confidence" }>, best: RetrievedPassage | undefined, bestWords: string[], unknown: string[]): string => {
  const page = best === undefined ? "" : pageName(best);
  switch (record.reason) {
    case "nothing_retrieved":
      return "Unsure: nothing in the knowledge matched the question.";
    case "unknown_words":
      return unknown.length > 0
        ? `Unsure: the question's distinctive words ${quoted(unknown)} appear nowhere in the knowledge, so no page can be said to answer it.`
        : "Unsure: the question's distinctive words appear nowhere in the knowledge.";
    case "similar_passage":
      return `Sure: a passage of ${page} is very close in meaning to the question.`;
    case "words_matched":
      return `Sure: ${page} holds the question's distinctive words${bestWords.length > 0 ? ` (${quoted(bestWords)})` : ""}.`;
    case "weak_match":
      return `Unsure: the pages found share ${bestWords.length > 0 ? `only ${quoted(bestWords)}` : "too few words"} with the question, not enough to be sure they answer it.`;
  }
};

/** What the search's verdict means when a model answers: it reads the passages and judges itself. */
const MODEL_JUDGES = {
  sure: "The model still checks that the passages answer it.",
  unsure: "The model is given the passages all the same and judges for itself.",
} as const;

const pagesWord = (count: number): string => (count === 1 ? "the page" : "the pages");

/** How the answer was written and what made it sure or unsure, in a site owner's words. */
function compositionWords(record: Extract<StageRecord, { stage: "composition" }>): string {
  const cited = record.citedDocumentIds.length;
  const offered = cited > 0 ? `, offering ${pagesWord(cited)} that may help for the visitor to judge,` : "";
  const model = record.generator;
  if (record.fellBack) return `The model gave no answer (it failed or took too long), so the bot answered from the pages itself, marked as unsure${cited > 0 ? ` and citing ${pagesWord(cited)}` : ""}.`;
  switch (record.judgement) {
    case "answered":
      if (model === "extractive") return `The answer quotes the page's own sentences, naming the page it quotes, and cites ${pagesWord(cited)}.`;
      return record.turnedSure
        ? `The answer was written by ${model}: though the search was unsure, the model found the answer in the passages and cites ${pagesWord(cited)} it used.`
        : `The answer was written by ${model} from the passages and cites ${pagesWord(cited)} it used.`;
    case "retrieval_unsure":
      return `As the search was unsure, the bot quotes nothing as an answer: it says it is not sure${offered} and offers a person.`;
    case "no_answering_sentence":
      return `None of the passages holds a sentence that answers the question, so the bot says it is not sure${offered} and offers a person.`;
    case "model_declined":
      return `The model (${model}) read the passages and said they do not answer the question, so the reply is marked unsure and offers a person.`;
    case "model_cited_nothing":
      return `The model (${model}) answered without pointing to any of the passages, so nothing shows the answer comes from your pages: it is marked unsure and offers a person.`;
    case "nothing_retrieved":
      return "With nothing found, the bot says it is not sure and offers a person.";
    case "fell_back":
    case "interrupted":
      return "The answer broke off before it was complete.";
  }
}

/** One sentence per stage the question went through, in words a site owner reads. */
function stepsOf(trace: TurnTrace, question: string, passages: Tried["passages"], unknown: string[]): Step[] {
  const best = stageOf(trace, "retrieval")?.retrieval.passages[0];
  const bestWords = passages[0]?.matched_words ?? [];
  const composition = stageOf(trace, "composition");
  // A model's own verdict decides, not the search's (an answer it could not give was quoted instead).
  const modelJudges = composition !== undefined && composition.generator !== "extractive";
  return trace.stages.map((record): Step => {
    switch (record.stage) {
      case "curated_answer":
        return {
          stage: record.stage,
          summary: record.decided
            ? `An operator's curated answer was written for a question close to this one (“${record.curated.question}”): the bot gives it as written, without searching the pages.`
            : record.looked
              ? "No curated answer is close enough to this question."
              : "The agent has no curated answers.",
        };
      case "person_request":
        return {
          stage: record.stage,
          summary: !record.decided
            ? "The message does not ask for a person."
            : record.reason === "asked_in_words"
              ? "The message asks for a person: the conversation would wait for someone of the team, and the bot says nothing more."
              : "The visitor says yes to the bot's offer of a person: the conversation would wait for someone of the team.",
        };
      case "small_talk":
        return {
          stage: record.stage,
          summary: record.decided ? `The message is small talk (${record.kind}): the bot replies in kind, without searching the pages.` : "The message is a question, not small talk.",
        };
      case "follow_up":
        return {
          stage: record.stage,
          summary: record.antecedent === null ? "The message is read on its own." : `The message follows up an earlier one, so it is read with it: “${record.antecedent}”.`,
        };
      case "retrieval": {
        const pages = new Set(record.retrieval.passages.map((passage) => passage.documentId)).size;
        return {
          stage: record.stage,
          summary:
            best === undefined
              ? "No page of the knowledge shares a word with the question."
              : `The bot read ${record.retrieval.passages.length} passage${record.retrieval.passages.length === 1 ? "" : "s"} from ${pages} page${pages === 1 ? "" : "s"}; the best is from ${pageName(best)}${bestWords.length > 0 ? `, which holds ${quoted(bestWords)}` : ""}.`,
        };
      }
      case "confidence": {
        const words = confidenceWords(record, best, bestWords, unknown);
        return { stage: record.stage, summary: modelJudges && record.reason !== "nothing_retrieved" ? `${words} ${MODEL_JUDGES[record.sure ? "sure" : "unsure"]}` : words };
      }
      case "composition":
        return { stage: record.stage, summary: compositionWords(record) };
    }
  });
}

/**
 * "Try a question" in words: the stages the question went through and why each decided or passed
 * (which page, which of the question's words it holds, why the bot is sure or unsure), the
 * passages read with the words they share with the question, and the answer the bot would give.
 */
export function explainTurn(
  question: string,
  language: string,
  content: string,
  error: Tried["answer"]["error"],
  decision: TurnDecision,
  trace: TurnTrace,
): Tried {
  const retrieval = stageOf(trace, "retrieval")?.retrieval;
  const cited = new Set(decision.kind === "reply" ? decision.reply.citations.map((citation) => citation.id) : []);
  const passages = (retrieval?.passages ?? []).map((passage) => ({
    number: passage.number,
    document_id: passage.documentId,
    url: passage.url,
    title: passage.title,
    heading: passage.heading,
    content: passage.content,
    matched_words: matchedWords(question, `${passage.title} ${passage.heading ?? ""} ${passage.content}`, language),
    cited: stageOf(trace, "composition") !== undefined && cited.has(passage.documentId),
  }));
  const unknown = unknownWords(question, retrieval?.unknownLexemes ?? []);
  const confidence = stageOf(trace, "confidence");
  const reply = decision.kind === "reply" ? decision.reply : null;
  return {
    question,
    decided_by: trace.decidedBy,
    steps: stepsOf(trace, question, passages, unknown),
    sure: confidence === undefined ? null : confidence.sure,
    passages,
    unknown_words: unknown,
    answer: {
      content,
      citations: reply?.citations ?? [],
      low_confidence: reply?.lowConfidence ?? false,
      generator: reply?.generator ?? "handoff",
      hands_over: decision.kind === "handoff",
      error,
    },
  };
}
