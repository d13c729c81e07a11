import { askedKindOf, askingWords, type AskedKind } from "../asked-kind.js";
import { contentStems, questionStemWeights } from "../content-words.js";

/** A question of the message that asks for a kind of fact, with its content stems but those asking for the kind. */
export interface KindAsked {
  kind: AskedKind;
  stems: ReadonlySet<string>;
}

/** The visitor's message as the composer reads it (the first stage). */
export interface ReadQuestion {
  /** The message as written. */
  text: string;
  language: string;
  /** The stems looked for, each with how much it says about what is asked (the message's, and its follow-up context's). */
  weights: Map<string, number>;
  /** The questions of the message asking for a kind of fact ("How much is a gravel bike?"). */
  asked: readonly KindAsked[];
  /** The questions of the message with words of their own ("Do you ship to Germany? How much is it?" has two). */
  questions: readonly ReadonlySet<string>[];
}

/** The stems of the words asking for that kind ("long" in "how long"). */
export function askingStems(kind: AskedKind, language: string): Set<string> {
  return contentStems(askingWords(kind, language).join(" "), language);
}

/**
 * The questions of a message that ask for a kind of fact ("Do you deliver to Germany? How much is
 * a gravel bike?" has one), each with its content stems but those asking for the kind.
 */
function kindsAsked(message: string, language: string): KindAsked[] {
  return message.split(/(?<=[?？؟])/u).flatMap((part) => {
    const kind = askedKindOf(part, language);
    if (kind === null) return [];
    const asking = askingStems(kind, language);
    return [{ kind, stems: new Set([...contentStems(part, language)].filter((stem) => !asking.has(stem))) }];
  });
}

/** The questions of a message with words of their own. */
function questionsOf(message: string, language: string): Set<string>[] {
  return message
    .split(/[?？؟]+/u)
    .map((part) => contentStems(part, language))
    .filter((stems) => stems.size > 0);
}

/**
 * Reads the visitor's message: the words to look for, weighed by how specific they are in general
 * language (`questionStemWeights`), the kinds of fact it asks for, and its questions. `context`
 * (the previous message, for an elliptical follow-up) adds words to look for, but asks nothing of its own.
 */
export function readQuestion(text: string, language: string, context: string | null): ReadQuestion {
  return {
    text,
    language,
    weights: questionStemWeights(context === null ? text : `${context}\n${text}`, language),
    asked: kindsAsked(text, language),
    questions: questionsOf(text, language),
  };
}
