import { LANGUAGE_PACKS } from "../../language/language-packs.js";

/**
 * A visitor who writes that they want a person ("can I talk to a human?", "je voudrais parler à
 * un conseiller"), or says yes when the bot, unsure, asked "Would you like me to connect you with
 * a person?", is asking for the handoff, not asking the knowledge: retrieval would answer "talk"
 * and "human" from whatever page uses them (a careers page), and "yes" with the previous question
 * again. Such a message requests a person, as the widget's "Talk to a person" does. The words are
 * the language packs' (`language/packs/`).
 */

const alternatives = (words: readonly string[]): string => [...new Set(words)].join("|");

/** Who a visitor may ask for, in every language known here: "a real person", "un conseiller", "einem Mitarbeiter". */
const PERSON = (() => {
  const articles = alternatives(LANGUAGE_PACKS.flatMap((pack) => pack.personRequest.articles));
  const adjectives = alternatives(LANGUAGE_PACKS.flatMap((pack) => pack.personRequest.adjectives));
  const nouns = alternatives(LANGUAGE_PACKS.flatMap((pack) => pack.personRequest.nouns));
  return `(?:(?:${articles}) )?(?:(?:${adjectives}) )?(?:${nouns})`;
})();

/** Ways of asking for one; each must hold the whole request, not a word of a longer question. */
const REQUESTS: readonly RegExp[] = LANGUAGE_PACKS.flatMap((pack) => pack.personRequest.patterns(PERSON));

/** Whether a message asks for a person rather than asking a question of the knowledge. */
export function asksForPerson(message: string): boolean {
  const text = message.normalize("NFC").replace(/\s+/g, " ").trim();
  return text.length <= 160 && REQUESTS.some((request) => request.test(text));
}

/** Yes, in every language known here: the answer to "Would you like me to connect you with a person?". */
const YES = new Set(LANGUAGE_PACKS.flatMap((pack) => pack.yes));

/** Whether a message only says yes ("Yes please!", "oui"), punctuation and case aside. */
export function saysYes(message: string): boolean {
  const text = message.normalize("NFC").toLowerCase().replace(/[^\p{L}\p{N}' ]+/gu, " ").replace(/\s+/g, " ").trim();
  return YES.has(text);
}
