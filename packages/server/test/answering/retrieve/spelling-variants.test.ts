import { describe, expect, it } from "vitest";
import { spellingVariantsOf } from "../../../src/answering/retrieve/spelling-variants.js";

describe("spellingVariantsOf", () => {
  it("happy: each word spelled otherwise on the other side of the Atlantic, either way, once, with that spelling", () => {
    expect(spellingVariantsOf("Is the Honor roll colour-coded? My tires, my TIRES and my canceled order")).toEqual({
      words: ["honor", "colour", "tires", "canceled"],
      variants: ["honour", "color", "tyres", "cancelled"],
    });
  });

  it("edge: a text with no such word, or no word at all, gives none", () => {
    expect(spellingVariantsOf("Is delivery free on bikes?")).toEqual({ words: [], variants: [] });
    expect(spellingVariantsOf("?! 42")).toEqual({ words: [], variants: [] });
  });
});
