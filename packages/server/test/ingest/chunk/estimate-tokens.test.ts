import { describe, expect, it } from "vitest";
import { estimateTokens } from "../../../src/ingest/chunk/estimate-tokens.js";
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
