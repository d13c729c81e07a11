import { describe, expect, it } from "vitest";
import { estimateBySegments, estimateTokens } from "../../../src/ingest/chunk/estimate-tokens.js";
import { paragraph } from "./prose.js";

describe("estimateTokens", () => {
  it("happy: lands near the WordPiece ratio of about 1.3 tokens per word on English prose", () => {
    const text = paragraph(0, 40);
    const words = text.split(/\s+/).length;
    const ratio = estimateTokens(text) / words;
    expect(ratio).toBeGreaterThan(1.1);
    expect(ratio).toBeLessThan(1.6);
  });

  it("happy: counts short words once, long words per started six letters, and each punctuation mark", () => {
    expect(estimateTokens("the cat sat")).toBe(3);
    expect(estimateTokens("internationalisation")).toBe(4);
    expect(estimateTokens("Hello, world!")).toBe(4);
    expect(estimateTokens("don't")).toBe(3);
    expect(estimateTokens("£4.95")).toBe(4);
    expect(estimateTokens("   \n\t ")).toBe(0);
  });

  it("happy: counts each CJK character and thins out other scripts", () => {
    expect(estimateTokens("東京の店舗")).toBe(5);
    expect(estimateTokens("営業時間。")).toBe(5);
    expect(estimateTokens("Здравствуйте")).toBe(4);
  });

  it("happy: is additive over texts joined by whitespace", () => {
    const parts = [paragraph(0, 3), "東京の店舗は午前十時に開店します。", "Don't panic!"];
    expect(estimateTokens(parts.join("\n\n"))).toBe(parts.reduce((sum, part) => sum + estimateTokens(part), 0));
  });
});

describe("estimateTokens without word segments", () => {
  // Letters, digits, marks after letters, punctuation inside and between words, symbols, emoji
  // sequences, format characters and every kind of space: what a Latin-script page holds.
  const pool = [..."abcdefXYZéüßøñçÆ0123456789", "e\u0301", "n\u0303", ..." \n\t\u00a0\u2009", ..."'’.,;:-_/()[]@#$€£%&*!?\"«»—–…·", "\u00ad", "\u200d", "👍🏽", "❤️", "👨‍👩‍👧", "https://x.com/a_b?c=1.5"];

  function randomText(seed: number, length: number): string {
    let state = seed;
    const next = () => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state;
    };
    let text = "";
    for (let i = 0; i < length; i += 1) text += pool[next() % pool.length];
    return text;
  }

  it("happy: counts Latin-script text exactly as the segmented estimate does (2,000 generated texts)", () => {
    for (let seed = 1; seed <= 2_000; seed += 1) {
      const text = randomText(seed, 1 + (seed % 60));
      expect(estimateTokens(text), JSON.stringify(text)).toBe(estimateBySegments(text));
    }
  });

  it("happy: agrees with the segmented estimate on real Latin-script prose", () => {
    const texts = [
      paragraph(0, 40),
      "Returns: unworn items within 30 days (e.g. boots, tents); refunds in 5–7 working days. Email help@acmetrail.example or call +44 20 7946 0958.",
      "Café au lait, naïve façade, Straße, smörgåsbord — 20% off; ‘quoted’ «guillemets» … done.",
    ];
    for (const text of texts) expect(estimateTokens(text), text).toBe(estimateBySegments(text));
  });

  it("happy: counts text that needs the word segmenter by its segments, not by its pieces", () => {
    // Thai is cut by dictionary: ภาษา|ไทย|ไม่มี|ช่อง|ว่าง is 2 + 1 + 2 + 2 + 2; the run counted as one would be 7.
    expect(estimateTokens("ภาษาไทยไม่มีช่องว่าง")).toBe(9);
    // ICU makes no word of a word joined to an emoji: 4 symbols, where the pieces would be 3 (ab, the joiner, the emoji).
    expect(estimateTokens("ab\u200d👍")).toBe(4);
    // Each CJK character and the full stop count one: 16 + 1.
    expect(estimateTokens("東京の店舗は午前十時に開店します。")).toBe(17);
    expect(estimateTokens("Здравствуйте, мир")).toBe(6);
  });
});
