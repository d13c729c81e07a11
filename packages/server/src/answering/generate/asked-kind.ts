import type { AskedKind } from "../../language/language-pack.js";
import { findLanguagePack } from "../../language/language-packs.js";

/**
 * What kind of fact a question asks for, when its words say so: "How long does the warranty last?"
 * wants a duration, "How much is postage?" or "Do I have to pay anything?" an amount, "What time
 * do you open?" a time. The words that say it ("long", "much", "time") are the commonest of the
 * language and weigh nothing in the reply's choice of sentences (see `questionStemWeights`), so
 * without this a sentence about the warranty in general beats the row that says "2 years".
 * The rules are a language pack's `askedKinds` (English has them): another language's question asks for no kind here.
 */
export type { AskedKind };

/** The kind of fact the question asks for, or null when its words do not say (or its language has no such rules). */
export function askedKindOf(question: string, language: string): AskedKind | null {
  const asks = findLanguagePack(language)?.askedKinds?.asks ?? [];
  for (const [kind, pattern] of asks) if (pattern.test(question)) return kind;
  return null;
}

/** The words that ask for a kind and say nothing of what it is about: "long" in "how long", "time" in "what time". */
export function askingWords(kind: AskedKind, language: string): readonly string[] {
  return findLanguagePack(language)?.askedKinds?.askingWords[kind] ?? [];
}

/** Whether the text states a fact of that kind, as the language that asked writes it: "2 years", "£35", "9am to 5:30pm". */
export function holdsKind(text: string, kind: AskedKind, language: string): boolean {
  return findLanguagePack(language)?.askedKinds?.holds[kind].test(text) ?? false;
}

/** Whether the message asks a second thing after "and" ("Do you deliver to Germany and what does it cost?"), where its language says how. */
export function asksSecondThing(question: string, language: string): boolean {
  return findLanguagePack(language)?.askedKinds?.secondAsk.test(question) ?? false;
}
