/**
 * Term proximity: a passage in which two neighbouring words of the question stand close together
 * ("rider weight", "share price", "York … Saturday") is likelier to be about what is asked than one
 * that holds the same words far apart. BM25 scores words independently, so the lexical ranking is
 * re-ordered by a proximity term, as BM25 with term proximity does in the IR literature: each pair
 * of the question's neighbouring words found close together in a passage adds the lesser of their
 * IDFs to its score, as if the rarer word of the pair had matched once more.
 *
 * Measured on both eval sets (docs/benchmarks.md, "Answer quality"): the expected page cited first
 * 68.5 → 71.3 % (northwind) and 87.5 → 88.9 % (govuk); every weight from 0.5 to 1.5 and every span
 * from 2 to 4 gained on both sets.
 */

/** Two question words count as neighbours when at most this many positions apart (one stop word between them). Used in SQL (`questionLexemesSql`). */
export const QUESTION_PAIR_SPAN = 2;
/** …and as close together in a passage when at most this many positions apart, in either order. */
export const PASSAGE_PAIR_SPAN = 3;

/** Two neighbouring words of the question, as the knowledge spells them, and what finding them together weighs. */
export interface TermPair {
  first: string;
  second: string;
  /** The lesser IDF of the two words in the agent's knowledge. */
  weight: number;
}

/** Each lexeme's positions in one passage (ascending, as a tsvector stores them). */
export type TermPositions = ReadonlyMap<string, readonly number[]>;

/** Whether two ascending position lists hold a position of each within `span` of each other. */
function within(first: readonly number[], second: readonly number[], span: number): boolean {
  let i = 0;
  let j = 0;
  while (i < first.length && j < second.length) {
    const a = first[i]!;
    const b = second[j]!;
    if (Math.abs(a - b) <= span) return true;
    if (a < b) i += 1;
    else j += 1;
  }
  return false;
}

/** The proximity term of one passage: Σ weight of the pairs it holds close together. */
export function proximityBonus(positions: TermPositions | undefined, pairs: readonly TermPair[]): number {
  if (!positions) return 0;
  let bonus = 0;
  for (const pair of pairs) {
    const first = positions.get(pair.first);
    const second = positions.get(pair.second);
    if (first && second && within(first, second, PASSAGE_PAIR_SPAN)) bonus += pair.weight;
  }
  return bonus;
}

/**
 * The lexical hits, each with its proximity term, re-ordered by BM25 plus that term (ties: lower
 * chunk id first). Their scores are left as BM25 gave them.
 */
export function rankedByProximity<T extends { chunkId: number; score: number }>(
  hits: readonly T[],
  positionsOf: (chunkId: number) => TermPositions | undefined,
  pairs: readonly TermPair[],
): (T & { proximity: number })[] {
  return hits
    .map((hit) => ({ ...hit, proximity: proximityBonus(positionsOf(hit.chunkId), pairs) }))
    .sort((a, b) => b.score + b.proximity - (a.score + a.proximity) || a.chunkId - b.chunkId);
}

/** The most the proximity term can add for these pairs: each found close together. */
export function mostProximity(pairs: readonly TermPair[]): number {
  return pairs.reduce((sum, pair) => sum + pair.weight, 0);
}

/** The distinct lexemes of some pairs, whose positions a passage must be read with. */
export function pairLexemes(pairs: readonly TermPair[]): string[] {
  return [...new Set(pairs.flatMap((pair) => [pair.first, pair.second]))];
}
