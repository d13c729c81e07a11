import { describe, expect, it } from "vitest";
import { CompoundSpellings } from "../../../src/answering/retrieve/compound-spellings.js";

describe("compound spellings", () => {
  const vocabulary = ["e-bik", "e", "bike", "cut-off", "cut", "off", "postgradu", "deliveri"];
  const known = new Set(vocabulary);
  const compounds = new CompoundSpellings(vocabulary);
  const isKnown = (lexeme: string) => known.has(lexeme);

  it("happy: a compound written without its hyphen finds the knowledge's hyphenated lexeme, and the other way round", () => {
    expect(compounds.variantOf("ebik", isKnown)).toBe("e-bik");
    expect(compounds.variantOf("cutoff", isKnown)).toBe("cut-off");
    expect(compounds.variantOf("post-gradu", isKnown)).toBe("postgradu");
  });

  it("error: a word with no other spelling in the knowledge, or only a similar one, has no variant", () => {
    for (const lexeme of ["kayak", "ebi", "ebikes", "cutof", "-", "deliv"]) expect(compounds.variantOf(lexeme, isKnown)).toBeNull();
  });
});
