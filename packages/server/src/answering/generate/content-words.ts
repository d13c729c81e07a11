import { generalEnglishRarity, MIN_WORD_WEIGHT } from "../confidence/general-english-rarity.js";
import { otherSpellingOf } from "../retrieve/spelling-variants.js";
import { primaryLanguage } from "./low-confidence-reply.js";

/** Function words of English questions and answers; they say nothing about what is asked. */
const ENGLISH_STOPWORDS = new Set(
  (
    "a an the and or but if then so of to in on at by for with from as into onto over under about after before " +
    "is are was were be been being am do does did doing done have has had having will would shall should can could may might must " +
    "i me my mine we our ours us you your yours he him his she her hers it its they them their theirs " +
    "what which who whom whose when where why how this that these those there here " +
    "not no yes all any some each every more most other such only own same than too very just also again once " +
    "up down out off both few nor now get gets got please tell know want need like hi hello hey thanks thank " +
    "s t d ll m re ve don doesn isn aren wasn won"
  ).split(" "),
);

/** Below this length a word of a language without a stopword list is taken for a function word. */
const FALLBACK_MIN_LENGTH = 4;
const STEM_LENGTH = 6;

/** Whether a language tag is English ("en", "en-GB"). */
export function isEnglish(language: string): boolean {
  return primaryLanguage(language) === "en";
}

/** Lowercase words without diacritics: `Réservez` → `reservez`. */
export function words(text: string): string[] {
  const folded = text.toLowerCase().normalize("NFKD").replace(/\p{M}+/gu, "");
  return folded.match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * A crude stem that lets `shipping`, `shipped` and `ships`, or `price`, `prices` and `pricing`
 * meet: one of `ing`, `ed`, `s` is cut, then a final `e`, then one letter of a doubled final
 * consonant, and what is left is cut to six letters.
 */
export function stem(word: string): string {
  let base = word;
  const suffix = ["ing", "ed", "s"].find((ending) => base.endsWith(ending) && base.length - ending.length >= 3);
  if (suffix !== undefined) base = base.slice(0, -suffix.length);
  if (base.endsWith("e") && base.length > 3) base = base.slice(0, -1);
  if (/([b-df-hj-np-tv-z])\1$/.test(base)) base = base.slice(0, -1);
  return base.slice(0, STEM_LENGTH);
}

/**
 * The stems of the words of `text` that carry meaning. English drops its stopwords; other
 * languages have no list here, so they also drop every word shorter than four letters, which
 * removes most of their articles, pronouns and prepositions. Numbers always count.
 */
export function contentStems(text: string, language: string): Set<string> {
  const english = isEnglish(language);
  const stems = new Set<string>();
  for (const word of words(text)) {
    if (ENGLISH_STOPWORDS.has(word)) continue;
    const numeric = /^\p{N}+$/u.test(word);
    if (!numeric && word.length < (english ? 2 : FALLBACK_MIN_LENGTH)) continue;
    stems.add(numeric ? word : stem(word));
  }
  return stems;
}

/**
 * The content stems of a question, each with how much it says about what is asked: in English,
 * its word's rarity in general English (see `generalEnglishRarity`; "take" or "long" weigh
 * little, "battery" or "cash" much), at least `MIN_WORD_WEIGHT`; in other languages, 1. An
 * English word's other spelling ("tyres" for "tires", see `spelling-variants.ts`) is looked for
 * too, weighing the same, as retrieval looks for it.
 */
export function questionStemWeights(text: string, language: string): Map<string, number> {
  const english = isEnglish(language);
  const weights = new Map<string, number>();
  for (const word of words(text)) {
    const [stemmed] = contentStems(word, language);
    if (stemmed === undefined) continue;
    const weight = english ? MIN_WORD_WEIGHT + generalEnglishRarity(word) : 1;
    const other = english ? otherSpellingOf(word) : undefined;
    const [otherStem] = other === undefined ? [] : contentStems(other, language);
    for (const stem of new Set([stemmed, otherStem ?? stemmed])) weights.set(stem, Math.max(weights.get(stem) ?? 0, weight));
  }
  return weights;
}

/** How many of `wanted` appear in `found`. */
export function overlap(wanted: ReadonlySet<string>, found: ReadonlySet<string>): number {
  let shared = 0;
  for (const item of wanted) if (found.has(item)) shared += 1;
  return shared;
}
