import { describe, expect, it } from "vitest";
import { withoutContractionFragments } from "../../../src/answering/retrieve/contraction-fragments.js";

describe("withoutContractionFragments", () => {
  it("happy: drops the lexemes that come only from the pieces after an apostrophe, straight or curly", () => {
    expect(withoutContractionFragments(["ve", "return", "bike", "ll", "re", "d", "m"], "I've a bike to return; you'll see we’re fine, I'd say, I'm sure")).toEqual(["return", "bike"]);
    expect(withoutContractionFragments(["won", "bike", "isn", "t"], "It won't start and the bike isn’t new")).toEqual(["bike"]);
  });

  it("edge: keeps a lexeme the question also writes as a word of its own, and longer pieces such as a name's", () => {
    expect(withoutContractionFragments(["ve", "brien", "o"], "I've met O'Brien")).toEqual(["brien", "o"]);
    expect(withoutContractionFragments(["d", "ve"], "Plan D: I've chosen d")).toEqual(["d"]);
    expect(withoutContractionFragments(["bike", "ve"], "bike ve")).toEqual(["bike", "ve"]);
    expect(withoutContractionFragments(["won", "race"], "We won the race, didn't we?")).toEqual(["won", "race"]);
  });

  it("edge: a question without an apostrophe, or with nothing stemmed, is left as it is", () => {
    expect(withoutContractionFragments(["deliveri", "free"], "Is delivery free?")).toEqual(["deliveri", "free"]);
    expect(withoutContractionFragments([], "I've")).toEqual([]);
  });
});
