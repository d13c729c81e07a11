/** Okapi BM25 as both lexical paths (SQL and the in-memory index) compute it. */
export const BM25 = {
  k1: 1.2,
  b: 0.75,
  /** Matches in the title (weight A) and heading (weight B) count this many times over. */
  titleBoost: 2,
} as const;

/** Inverse document frequency of a lexeme found in `documentFrequency` of `chunkCount` chunks. */
export function inverseDocumentFrequency(chunkCount: number, documentFrequency: number): number {
  return Math.log(1 + (chunkCount - documentFrequency + 0.5) / (documentFrequency + 0.5));
}
