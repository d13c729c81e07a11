import { describe, expect, it } from "vitest";
import { closeTogetherQuery, mostProximity, rankedByProximity, type TermPair } from "../../../src/answering/retrieve/term-proximity.js";

const pairs: TermPair[] = [
  { first: "rider", second: "weight", weight: 2 },
  { first: "maximum", second: "rider", weight: 1.5 },
];

describe("term proximity", () => {
  it("happy: a pair is close together at 1 to 3 positions apart, in either order", () => {
    expect(closeTogetherQuery(pairs[0]!, (lexeme) => `'${lexeme}'`)).toBe(
      "'rider' <1> 'weight' | 'weight' <1> 'rider' | 'rider' <2> 'weight' | 'weight' <2> 'rider' | 'rider' <3> 'weight' | 'weight' <3> 'rider'",
    );
  });

  it("happy: re-orders hits by BM25 plus their proximity term, keeping their BM25 scores beside it; ties go to the lower chunk id", () => {
    const hits = [
      { chunkId: 1, score: 5 },
      { chunkId: 2, score: 4 },
      { chunkId: 3, score: 3 },
    ];
    const proximity = new Map([[2, 2], [3, 2]]);
    expect(rankedByProximity(hits, (id) => proximity.get(id) ?? 0)).toEqual([
      { chunkId: 2, score: 4, proximity: 2 },
      { chunkId: 1, score: 5, proximity: 0 },
      { chunkId: 3, score: 3, proximity: 2 },
    ]);
    const tied = rankedByProximity([{ chunkId: 9, score: 3 }, { chunkId: 4, score: 1 }], (id) => (id === 4 ? 2 : 0));
    expect(tied.map((hit) => hit.chunkId)).toEqual([4, 9]);
  });

  it("edge: with no proximity anywhere the order is BM25's; no hits give none", () => {
    const hits = [{ chunkId: 2, score: 2 }, { chunkId: 1, score: 1 }];
    expect(rankedByProximity(hits, () => 0)).toEqual([
      { chunkId: 2, score: 2, proximity: 0 },
      { chunkId: 1, score: 1, proximity: 0 },
    ]);
    expect(rankedByProximity([], () => 1)).toEqual([]);
  });

  it("happy: the most the term can add is every pair found close together", () => {
    expect(mostProximity(pairs)).toBe(3.5);
    expect(mostProximity([])).toBe(0);
  });
});
