import { describe, expect, test } from "vitest";
import { CitationMarkerStripper } from "../../../src/answering/generate/citation-marker-stripper.js";

function strip(chunks: readonly string[]): { text: string; cited: readonly number[]; pieces: string[] } {
  const stripper = new CitationMarkerStripper();
  const pieces = chunks.map((chunk) => stripper.push(chunk));
  pieces.push(stripper.flush());
  return { text: pieces.join(""), cited: stripper.citedNumbers, pieces };
}

/** Every way of cutting `text` into two chunks, and one character per chunk. */
function cuttings(text: string): string[][] {
  const twoWay = Array.from({ length: text.length + 1 }, (_, at) => [text.slice(0, at), text.slice(at)]);
  return [...twoWay, [...text]];
}

describe("citation marker stripper (happy)", () => {
  const model = "Orders ship within 2–3 business days [1]. Shipping is free over €50 [1][2].\nReturns take 30 days [3].";
  const shown = "Orders ship within 2–3 business days. Shipping is free over €50.\nReturns take 30 days.";

  test("removes markers with the space before them and records the numbers in first-cited order", () => {
    expect(strip([model])).toMatchObject({ text: shown, cited: [1, 2, 3] });
  });

  test("gives the same text and citations however the stream is cut", () => {
    for (const chunks of cuttings(model)) {
      const result = strip(chunks);
      expect(result.text, JSON.stringify(chunks)).toBe(shown);
      expect(result.cited).toEqual([1, 2, 3]);
      expect(result.pieces.some((piece) => piece.includes("[") || piece.includes("]"))).toBe(false);
    }
  });

  test("holds back only what could still become a marker", () => {
    const stripper = new CitationMarkerStripper();
    expect(stripper.push("Free over €50 [")).toBe("Free over €50");
    expect(stripper.push("12")).toBe("");
    expect(stripper.push("] and fast")).toBe(" and fast");
    expect(stripper.citedNumbers).toEqual([12]);
  });

  test("understands comma lists and cites each number once", () => {
    expect(strip(["Yes [2, 3]. Also [3,1]."])).toMatchObject({ text: "Yes. Also.", cited: [2, 3, 1] });
  });

  test("a marker at the start of a line takes the space after it too", () => {
    expect(strip(["Here is what I found:\n[1] Orders ship fast.\n", "[2]  Returns are free."])).toMatchObject({
      text: "Here is what I found:\nOrders ship fast.\nReturns are free.",
      cited: [1, 2],
    });
  });

  test("keeps brackets that are not markers, and an unclosed one at the end", () => {
    expect(strip(["See [the FAQ] or call [", "+33 4 72 00 00 00]."])).toMatchObject({
      text: "See [the FAQ] or call [+33 4 72 00 00 00].",
      cited: [],
    });
    expect(strip(["It costs €5 [1", "2"])).toMatchObject({ text: "It costs €5 [12", cited: [] });
    expect(strip(["Years [2024] and [123] stay."])).toMatchObject({ text: "Years [2024] and [123] stay.", cited: [] });
  });

  test("keeps spaces between words however they are cut, and drops trailing ones", () => {
    expect(strip(["Orders ", " ship", "   ", "fast  "])).toMatchObject({ text: "Orders  ship   fast" });
  });
});
