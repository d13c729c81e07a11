import { contentStems } from "../generate/content-words.js";

/** Words that open a message continuing the previous one: "and to Germany?", "what about tents?". */
const CONTINUATION = /^\s*(?:and|but|also|or|so|then|ok|okay|what about|how about|what if|same for|et|und|y|en|e|ma|mais|aber|pero|maar|mas)\b/iu;
/** Pronouns that point back at the previous message: "is it free?", "how long does that take?". */
const POINTING_BACK = /\b(?:it|its|that|this|those|these|they|them)\b/iu;
/** A message with at most this many content words of its own cannot stand alone. */
const ELLIPTICAL_CONTENT_WORDS = 1;
/** A message that continues or points back is read with the previous one up to this many content words. */
const SHORT_CONTENT_WORDS = 4;

/**
 * Whether a visitor's message needs the previous one to be understood: elliptical (at most one
 * content word: "and Germany?", "how much?"), or short and opening with a continuation ("and can
 * I get it tomorrow?") or pointing back with a pronoun ("how long does that take?"). A message
 * that names its own subject ("what is your returns policy?") stands alone.
 */
export function isFollowUp(message: string, language: string): boolean {
  const contentWords = contentStems(message, language).size;
  if (contentWords <= ELLIPTICAL_CONTENT_WORDS) return true;
  if (contentWords > SHORT_CONTENT_WORDS) return false;
  return CONTINUATION.test(message) || POINTING_BACK.test(message);
}
