/**
 * Term proximity: a passage in which two neighbouring words of the question stand close together
 * ("rider weight", "share price", "Elmford … Saturday") is likelier to be about what is asked than one
 * that holds the same words far apart. BM25 scores words independently, so the lexical ranking is
 * re-ordered by a proximity term, as BM25 with term proximity does in the IR literature: each pair
 * of the question's neighbouring words found close together in a passage adds the lesser of their
 * IDFs to its score, as if the rarer word of the pair had matched once more. Postgres finds them
 * with phrase queries on the chunk's tsvector, where the passages are read (no extra statement).
 *
 * Measured on both eval sets (docs/benchmarks.md, "Answer quality"): the expected page cited first
 * 68.5 → 70.4 % (the bike-shop set) and 87.5 → 88.6 % (govuk); in the study of rankings, at span 3, every
 * weight from 1 to 3 put more expected pages first on both sets. Confidence reads the term too
 * (`bestScore`), which raised the cross-validated `low_confidence` F1 in 5 of its 6 splits.
 */

/** Two question words count as neighbours when at most this many positions apart (one stop word between them). Used in SQL (`questionLexemesSql`). */
export const QUESTION_PAIR_SPAN = 2;
/** …and as close together in a passage when at most this many positions apart, in either order. */
export const PASSAGE_PAIR_SPAN = 3;
/** At most this many pairs (the heaviest) are looked for, so that a long message costs a bounded statement: each is a phrase query on every candidate. */
export const MOST_PAIRS = 12;

/** Two neighbouring words of the question, as the knowledge spells them, and what finding them together weighs. */
export interface TermPair {
  first: string;
  second: string;
  /** The lesser IDF of the two words in the agent's knowledge. */
  weight: number;
}

/**
 * The lexical hits, each with its proximity term (Σ weight of the pairs it holds close together,
 * as `loadChunkPassages` measures it), re-ordered by BM25 plus that term (ties: lower chunk id
 * first). Their scores are left as BM25 gave them.
 */
export function rankedByProximity<T extends { chunkId: number; score: number }>(
  hits: readonly T[],
  proximityOf: (chunkId: number) => number,
): (T & { proximity: number })[] {
  return hits
    .map((hit) => ({ ...hit, proximity: proximityOf(hit.chunkId) }))
    .sort((a, b) => b.score + b.proximity - (a.score + a.proximity) || a.chunkId - b.chunkId);
}

/** The most the proximity term can add for these pairs: each found close together. */
export function mostProximity(pairs: readonly TermPair[]): number {
  return pairs.reduce((sum, pair) => sum + pair.weight, 0);
}

/** A tsquery (as text) matching a passage that holds a pair close together, in either order; `quote` writes a lexeme as a tsquery operand. */
export function closeTogetherQuery(pair: TermPair, quote: (lexeme: string) => string): string {
  const distances = Array.from({ length: PASSAGE_PAIR_SPAN }, (_, i) => i + 1);
  const [first, second] = [quote(pair.first), quote(pair.second)];
  return distances.flatMap((distance) => [`${first} <${distance}> ${second}`, `${second} <${distance}> ${first}`]).join(" | ");
}
