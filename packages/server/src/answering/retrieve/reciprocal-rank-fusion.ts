import type { RankedChunk } from "./chunk-search-repository.js";

/** The constant of reciprocal rank fusion (Cormack et al., 2009). */
export const RRF_K = 60;

/** Fuses ranked lists: each chunk scores Σ 1 / (k + rank) over the lists it appears in, best first. */
export function reciprocalRankFusion(lists: RankedChunk[][], k = RRF_K): RankedChunk[] {
  const scores = new Map<number, number>();
  for (const list of lists) {
    list.forEach((chunk, index) => scores.set(chunk.chunkId, (scores.get(chunk.chunkId) ?? 0) + 1 / (k + index + 1)));
  }
  return [...scores.entries()]
    .map(([chunkId, score]) => ({ chunkId, score }))
    .sort((a, b) => b.score - a.score || a.chunkId - b.chunkId);
}
