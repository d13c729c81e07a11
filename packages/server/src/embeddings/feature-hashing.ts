import { l2NormaliseInPlace } from "./l2-normalise.js";

/**
 * Signed feature hashing of words and character n-grams: the `hashing` embedder's whole
 * model. Pure and deterministic across processes and machines: the same text always gives
 * the same vector, because the hash is computed over UTF-16 code units of NFKC-normalised,
 * lower-cased text with fixed constants.
 */

/** Bumped whenever anything below changes the vectors; it is part of the embedder id. */
export const FEATURE_HASHING_VERSION = 1;

const WORD_WEIGHT = 1;
const NGRAM_WEIGHT = 0.35;
const MIN_NGRAM = 3;
const MAX_NGRAM = 5;
/** Letters (with their combining marks) and digits, in any script. */
const WORD_PATTERN = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu;
/** Texts without a single word all map to this feature, so they still get a unit vector. */
const EMPTY_FEATURE = "\u0000empty";

const FNV_OFFSET_BASIS = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** 32-bit FNV-1a over the UTF-16 code units (low byte, then high byte) followed by murmur3's finaliser. */
function hashFeature(feature: string): number {
  let hash = FNV_OFFSET_BASIS;
  for (let position = 0; position < feature.length; position++) {
    const unit = feature.charCodeAt(position);
    hash = Math.imul(hash ^ (unit & 0xff), FNV_PRIME);
    hash = Math.imul(hash ^ (unit >>> 8), FNV_PRIME);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/** The words of a text: NFKC-normalised, lower-cased runs of letters, marks and digits. */
function wordsOf(text: string): string[] {
  return text.normalize("NFKC").toLowerCase().match(WORD_PATTERN) ?? [];
}

function addFeature(vector: Float32Array, feature: string, weight: number): void {
  const hash = hashFeature(feature);
  // The lowest bit chooses the sign, the rest the index, so collisions tend to cancel out.
  const sign = (hash & 1) === 0 ? 1 : -1;
  const index = (hash >>> 1) % vector.length;
  vector[index] = (vector[index] ?? 0) + sign * weight;
}

function addCharacterNgrams(vector: Float32Array, word: string): void {
  // Code points, not code units, so a character outside the BMP is never split in half.
  const characters = Array.from(`<${word}>`);
  for (let size = MIN_NGRAM; size <= MAX_NGRAM; size++) {
    for (let start = 0; start + size <= characters.length; start++) {
      addFeature(vector, `c:${characters.slice(start, start + size).join("")}`, NGRAM_WEIGHT);
    }
  }
}

/** The L2-normalised hashed-feature vector of one text. */
export function hashTextFeatures(text: string, dimensions: number): Float32Array {
  const vector = new Float32Array(dimensions);
  const words = wordsOf(text);
  if (words.length === 0) addFeature(vector, EMPTY_FEATURE, WORD_WEIGHT);
  for (const word of words) {
    addFeature(vector, `w:${word}`, WORD_WEIGHT);
    addCharacterNgrams(vector, word);
  }
  l2NormaliseInPlace(vector);
  // A text whose features all cancelled out still needs a unit vector.
  if (vector.every((value) => value === 0)) addFeature(vector, EMPTY_FEATURE, WORD_WEIGHT);
  return l2NormaliseInPlace(vector);
}
