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

/**
 * Whether a message cannot be read alone at all, so that retrieval reads it with the previous one
 * rather than alone first: it has no content word ("how much?"), or one after a continuation ("And
 * on Sunday?", "what about Leeds?"). Alone, "Sunday" would match any page that names the day.
 */
export function needsPrevious(message: string, language: string): boolean {
  const contentWords = contentStems(message, language).size;
  return contentWords === 0 || (contentWords <= ELLIPTICAL_CONTENT_WORDS && CONTINUATION.test(message));
}

/** Days of the week and months in `language` (and English), from Intl: the kinds of word a follow-up swaps. */
const swappableKinds = new Map<string, RegExp[]>();

function kindsOfSwappableWords(language: string): RegExp[] {
  let kinds = swappableKinds.get(language);
  if (kinds === undefined) {
    const names = (options: Intl.DateTimeFormatOptions, count: number, dateOf: (index: number) => Date) =>
      [...new Set([language, "en"])].flatMap((locale) => {
        let format: Intl.DateTimeFormat;
        try {
          format = new Intl.DateTimeFormat(locale, { ...options, timeZone: "UTC" });
        } catch {
          return [];
        }
        return Array.from({ length: count }, (_, index) => format.format(dateOf(index)).toLowerCase());
      });
    const weekdays = names({ weekday: "long" }, 7, (index) => new Date(Date.UTC(2024, 0, 1 + index)));
    const months = names({ month: "long" }, 12, (index) => new Date(Date.UTC(2024, index, 1)));
    kinds = [weekdays, months].map((words) => new RegExp(`(?<!\\p{L})(?:${words.map(escapeRegExp).join("|")})s?(?!\\p{L})`, "giu"));
    swappableKinds.set(language, kinds);
  }
  return kinds;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The previous message as a follow-up reads it: a day of the week or a month the follow-up names
 * takes the place of the one it named ("And on Sunday?" after "Is the York shop open on
 * Saturday?" reads "Is the York shop open on Sunday?", not a question about both days).
 */
export function previousForFollowUp(previous: string, message: string, language: string): string {
  let read = previous;
  for (const kind of kindsOfSwappableWords(language)) {
    const named = [...new Set(message.match(kind) ?? [])];
    if (named.length > 0) read = read.replace(kind, named.join(" "));
  }
  return read;
}
