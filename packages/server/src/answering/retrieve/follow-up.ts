import { LANGUAGE_PACKS } from "../../language/language-packs.js";
import { contentStems } from "../generate/content-words.js";
import { isSmallTalk } from "../intent/small-talk.js";

/** Words that open a message continuing the previous one, in any language known here: "and to Germany?", "what about tents?". */
const CONTINUATIONS = LANGUAGE_PACKS.flatMap((pack) => (pack.continuation === null ? [] : [pack.continuation]));
/** Pronouns that point back at the previous message, in any language known here: "is it free?", "how long does that take?". */
const POINTING_BACK = LANGUAGE_PACKS.flatMap((pack) => (pack.pointingBack === null ? [] : [pack.pointingBack]));
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
  return followUpReading(message, language) !== "alone";
}

/**
 * Whether a message cannot be read alone at all, so that retrieval reads it with the previous one
 * rather than alone first: it has no content word ("how much?"), or one after a continuation ("And
 * on Sunday?", "what about Brookfield?"), or it is short, continues and points back ("and how long does
 * it take?"). Alone, "Sunday" would match any page that names the day.
 */
export function needsPrevious(message: string, language: string): boolean {
  return followUpReading(message, language) === "only with the previous";
}

/**
 * How a message is read: alone; with the previous one (`isFollowUp`); only with it
 * (`needsPrevious`). Small talk ("thanks!") has no content word but continues nothing: alone.
 */
export type FollowUpReading = "alone" | "with the previous" | "only with the previous";

export function followUpReading(message: string, language: string): FollowUpReading {
  if (isSmallTalk(message)) return "alone";
  const contentWords = contentStems(message, language).size;
  const continues = CONTINUATIONS.some((continuation) => continuation.test(message));
  if (contentWords === 0 || (contentWords <= ELLIPTICAL_CONTENT_WORDS && continues)) return "only with the previous";
  if (contentWords <= ELLIPTICAL_CONTENT_WORDS) return "with the previous";
  if (contentWords > SHORT_CONTENT_WORDS) return "alone";
  const pointsBack = POINTING_BACK.some((pointing) => pointing.test(message));
  // "and how long does it take?" both continues and points back: alone, "take" matches any page.
  if (continues && pointsBack) return "only with the previous";
  return continues || pointsBack ? "with the previous" : "alone";
}

/** Days of the week, months and countries in `language` (and English), from Intl: the kinds of word a follow-up swaps. */
const swappableKinds = new Map<string, RegExp[]>();

function kindsOfSwappableWords(language: string): RegExp[] {
  let kinds = swappableKinds.get(language);
  if (kinds === undefined) {
    const locales = [...new Set([language, "en"])];
    const dates = (options: Intl.DateTimeFormatOptions, count: number, dateOf: (index: number) => Date) =>
      locales.flatMap((locale) => {
        const format = formatterFor(() => new Intl.DateTimeFormat(locale, { ...options, timeZone: "UTC" }));
        return format === null ? [] : Array.from({ length: count }, (_, index) => format.format(dateOf(index)));
      });
    const weekdays = dates({ weekday: "long" }, 7, (index) => new Date(Date.UTC(2024, 0, 1 + index)));
    const months = dates({ month: "long" }, 12, (index) => new Date(Date.UTC(2024, index, 1)));
    const countries = locales.flatMap((locale) => {
      const names = formatterFor(() => new Intl.DisplayNames(locale, { type: "region", fallback: "none" }));
      return names === null ? [] : REGION_CODES.flatMap((code) => names.of(code) ?? []);
    });
    kinds = [alternatives(weekdays, true), alternatives(months, true), alternatives(countries, false)];
    swappableKinds.set(language, kinds);
  }
  return kinds;
}

/** Builds the English names now (about 25 ms, at start-up), so that the first follow-up does not wait for them. */
export function loadFollowUpWords(): void {
  kindsOfSwappableWords("en");
}

/** Every two-letter region code but "ZZ" (unknown): Intl names the ones that exist. */
const REGION_CODES = Array.from({ length: 26 * 26 }, (_, index) => String.fromCharCode(65 + Math.floor(index / 26), 65 + (index % 26))).filter((code) => code !== "ZZ");

/** An Intl formatter, or null for a locale Intl refuses. */
function formatterFor<T>(make: () => T): T | null {
  try {
    return make();
  } catch {
    return null;
  }
}

/** Any of `words` as a whole word, case-insensitive, with an English plural "s" where `plural`. */
function alternatives(words: readonly string[], plural: boolean): RegExp {
  const escaped = [...new Set(words.map((word) => word.toLowerCase()))].sort((a, b) => b.length - a.length).map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`(?<!\\p{L})(?:${escaped.join("|")})${plural ? "s?" : ""}(?!\\p{L})`, "giu");
}

/**
 * The previous message as a follow-up reads it: a day of the week, a month or a country the
 * follow-up names takes the place of the one it named ("And on Sunday?" after "Is the Elmford shop
 * open on Saturday?" reads "Is the Elmford shop open on Sunday?", not a question about both days;
 * "And Germany?" after "Do you ship to France?" reads "Do you ship to Germany?").
 */
export function previousForFollowUp(previous: string, message: string, language: string): string {
  let read = previous;
  for (const kind of kindsOfSwappableWords(language)) {
    const named = [...new Set(message.match(kind) ?? [])];
    if (named.length > 0) read = read.replace(kind, named.join(" "));
  }
  return read;
}

/**
 * The previous message as a follow-up reads it: with the day, month or country the follow-up names
 * in place of its own (`previousForFollowUp`), and, when it was a follow-up too, with its own
 * antecedent after it, back to the question the chain follows (within the visitor's `earlier`
 * messages the caller passes, oldest first). "what about Brookfield?" after "And on Sunday?" after "Is
 * the Elmford shop open on Saturday?" is read with both, about Sunday. Retrieval and the extractive
 * reply's choice of sentences read a follow-up alike.
 */
export function antecedentOf(message: string, earlier: readonly string[], language: string): string | undefined {
  const previous = earlier.at(-1);
  if (previous === undefined) return undefined;
  const itsAntecedent = followUpReading(previous, language) === "alone" ? undefined : antecedentOf(previous, earlier.slice(0, -1), language);
  return previousForFollowUp(itsAntecedent === undefined ? previous : `${previous}\n${itsAntecedent}`, message, language);
}
