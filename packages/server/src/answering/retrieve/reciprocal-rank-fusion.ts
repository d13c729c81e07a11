import type { RankedChunk } from "./chunk-search-repository.js";

/** The constant of reciprocal rank fusion (Cormack et al., 2009). */
export const RRF_K = 60;

/**
 * Fuses ranked lists: each chunk scores Σ weight / (k + rank) over the lists it appears in, best
 * first. Weights default to 1 (plain RRF).
 */
export function reciprocalRankFusion(lists: RankedChunk[][], weights: number[] = [], k = RRF_K): RankedChunk[] {
  const scores = new Map<number, number>();
  lists.forEach((list, listIndex) => {
    const weight = weights[listIndex] ?? 1;
    list.forEach((chunk, index) => scores.set(chunk.chunkId, (scores.get(chunk.chunkId) ?? 0) + weight / (k + index + 1)));
  });
  return [...scores.entries()]
    .map(([chunkId, score]) => ({ chunkId, score }))
    .sort((a, b) => b.score - a.score || a.chunkId - b.chunkId);
}
