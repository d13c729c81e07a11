import { generalEnglishRarity, MIN_WORD_WEIGHT } from "../confidence/general-english-rarity.js";
import { otherSpellingOf } from "../retrieve/spelling-variants.js";
import { findLanguagePack, primaryLanguage } from "../../language/language-packs.js";
import { en } from "../../language/packs/en.js";

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

/** Below this length a word of a language without a pack is taken for a function word. */
const FALLBACK_MIN_LENGTH = 4;

interface ContentWordRules {
  /** The language's function words as `words` reads them, with English's: English words stand on many sites whatever their language. */
  stopWords: ReadonlySet<string>;
  minLength: number;
}

const rulesOf = new Map<string, ContentWordRules>();

function contentWordRules(language: string): ContentWordRules {
  let rules = rulesOf.get(language);
  if (rules === undefined) {
    const pack = findLanguagePack(language);
    rules = {
      stopWords: new Set([...en.stopWords, ...(pack?.stopWords ?? [])].flatMap((word) => words(word))),
      minLength: pack?.minContentWordLength ?? FALLBACK_MIN_LENGTH,
    };
    rulesOf.set(language, rules);
  }
  return rules;
}

/**
 * The stems of the words of `text` that carry meaning: without the language's stop words (see its
 * pack) and English's, and without words shorter than the pack's `minContentWordLength` (four
 * letters for a language with no stop-word list or no pack, which removes most of its articles,
 * pronouns and prepositions). Numbers always count.
 */
export function contentStems(text: string, language: string): Set<string> {
  const { stopWords, minLength } = contentWordRules(language);
  const stems = new Set<string>();
  for (const word of words(text)) {
    if (stopWords.has(word)) continue;
    const numeric = /^\p{N}+$/u.test(word);
    if (!numeric && word.length < minLength) continue;
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
