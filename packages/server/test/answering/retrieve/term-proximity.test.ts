import { describe, expect, it } from "vitest";
import { mostProximity, pairLexemes, proximityBonus, rankedByProximity, type TermPair } from "../../../src/answering/retrieve/term-proximity.js";

const pairs: TermPair[] = [
  { first: "rider", second: "weight", weight: 2 },
  { first: "maximum", second: "rider", weight: 1.5 },
];

describe("term proximity", () => {
  it("happy: a pair counts when its words stand within 3 positions, in either order, and adds its weight", () => {
    expect(proximityBonus(new Map([["rider", [4]], ["weight", [5]], ["maximum", [3]]]), pairs)).toBe(3.5);
    expect(proximityBonus(new Map([["rider", [9]], ["weight", [6]]]), pairs)).toBe(2);
    // Several positions each: any two close enough count, once per pair.
    expect(proximityBonus(new Map([["rider", [1, 20, 40]], ["weight", [12, 37]]]), pairs)).toBe(2);
  });

  it("edge: words further apart, a word the passage lacks, no positions and no pairs add nothing", () => {
    expect(proximityBonus(new Map([["rider", [1]], ["weight", [5]], ["maximum", [9]]]), pairs)).toBe(0);
    expect(proximityBonus(new Map([["rider", [1]]]), pairs)).toBe(0);
    expect(proximityBonus(undefined, pairs)).toBe(0);
    expect(proximityBonus(new Map([["rider", [1]], ["weight", [2]]]), [])).toBe(0);
  });

  it("happy: re-orders hits by BM25 plus the bonus, keeping their BM25 scores beside it; ties go to the lower chunk id", () => {
    const hits = [
      { chunkId: 1, score: 5 },
      { chunkId: 2, score: 4 },
      { chunkId: 3, score: 3 },
    ];
    const positions = new Map([
      [2, new Map([["rider", [2]], ["weight", [3]]])],
      [3, new Map([["rider", [2]], ["weight", [3]]])],
    ]);
    expect(rankedByProximity(hits, (id) => positions.get(id), pairs)).toEqual([
      { chunkId: 2, score: 4, proximity: 2 },
      { chunkId: 1, score: 5, proximity: 0 },
      { chunkId: 3, score: 3, proximity: 2 },
    ]);
    const tied = rankedByProximity([{ chunkId: 9, score: 3 }, { chunkId: 4, score: 1 }], (id) => (id === 4 ? positions.get(2) : undefined), pairs);
    expect(tied.map((hit) => hit.chunkId)).toEqual([4, 9]);
  });

  it("edge: without pairs the order is BM25's, and nothing is added", () => {
    const hits = [{ chunkId: 2, score: 2 }, { chunkId: 1, score: 1 }];
    expect(rankedByProximity(hits, () => new Map([["rider", [1]], ["weight", [2]]]), [])).toEqual([
      { chunkId: 2, score: 2, proximity: 0 },
      { chunkId: 1, score: 1, proximity: 0 },
    ]);
    expect(rankedByProximity([], () => undefined, pairs)).toEqual([]);
  });

  it("happy: the most the term can add is every pair found close together", () => {
    expect(mostProximity(pairs)).toBe(3.5);
    expect(mostProximity([])).toBe(0);
  });

  it("happy: the lexemes whose positions are read are each pair's words, once", () => {
    expect(pairLexemes(pairs)).toEqual(["rider", "weight", "maximum"]);
    expect(pairLexemes([])).toEqual([]);
  });
});
