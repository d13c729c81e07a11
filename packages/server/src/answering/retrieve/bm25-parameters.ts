/** Okapi BM25 as both lexical paths (SQL and the in-memory index) compute it. */
export const BM25 = {
  k1: 1.2,
  b: 0.75,
  /** Matches in the title (weight A) and heading (weight B) count this many times over. */
  titleBoost: 2,
} as const;

/**
 * IDF treats a smaller knowledge base as if it had this many chunks. With one page of a few
 * chunks, every word it uses would otherwise weigh almost nothing next to a word it lacks: "How
 * long do I have to return a bike?" against a one-chunk returns policy put 71 % of the question's
 * weight on "long" and was judged unanswerable. From this size on, IDF is the plain formula.
 */
export const IDF_MIN_CHUNKS = 100;

/** Inverse document frequency of a lexeme found in `documentFrequency` of `chunkCount` chunks. */
export function inverseDocumentFrequency(chunkCount: number, documentFrequency: number): number {
  const chunks = Math.max(chunkCount, IDF_MIN_CHUNKS);
  return Math.log(1 + (chunks - documentFrequency + 0.5) / (documentFrequency + 0.5));
}
