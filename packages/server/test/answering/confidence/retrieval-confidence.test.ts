import { describe, expect, it } from "vitest";
import { generalEnglishRarity, lexemeWeights, MIN_WORD_WEIGHT } from "../../../src/answering/confidence/general-english-rarity.js";
import { confidenceScore, isConfident, type RetrievalSignals } from "../../../src/answering/confidence/retrieval-confidence.js";
import { retrievalCalibrationFor } from "../../../src/answering/retrieve/retrieval-calibration.js";

const signals = (overrides: Partial<RetrievalSignals>): RetrievalSignals => ({
  topSimilarity: 0,
  topCoverage: 0,
  unknownShare: 0,
  rareCoverage: 0,
  unknownRareShare: 0,
  bestScore: 0,
  ...overrides,
});

describe("general-English rarity", () => {
  it("happy: filler words weigh nothing, specific words weigh more the rarer they are", () => {
    for (const word of ["much", "long", "get", "where", "Much"]) expect(generalEnglishRarity(word)).toBe(0);
    expect(generalEnglishRarity("shipping")).toBeGreaterThan(0);
    expect(generalEnglishRarity("warranty")).toBeGreaterThan(generalEnglishRarity("shipping"));
    expect(generalEnglishRarity("coronavirus")).toBeGreaterThan(generalEnglishRarity("warranty"));
  });

  it("happy: a word the list lacks and a number weigh as much as the rarest word", () => {
    const rarest = generalEnglishRarity("zzzzqxv");
    expect(rarest).toBeGreaterThan(generalEnglishRarity("coronavirus"));
    expect(generalEnglishRarity("2019")).toBe(rarest);
  });

  it("happy: each stemmed lexeme takes the weight of the question's word it comes from", () => {
    const weights = lexemeWeights(["much", "ship", "e-bik", "bike", "happi"], "How much is shipping for my e-bike? Happy?");
    expect(weights.get("much")).toBe(MIN_WORD_WEIGHT);
    expect(weights.get("ship")).toBeCloseTo(MIN_WORD_WEIGHT + generalEnglishRarity("shipping"), 9);
    expect(weights.get("e-bik")).toBeCloseTo(MIN_WORD_WEIGHT + generalEnglishRarity("bike"), 9);
    expect(weights.get("happi")).toBeCloseTo(MIN_WORD_WEIGHT + generalEnglishRarity("happy"), 9);
  });
});

describe("retrieval confidence", () => {
  const thresholds = { minSimilarity: 0.6, minCoverage: 0.3, maxUnknownShare: 0.5, coverageWeight: 0.25 };

  it("happy: the score blends rarity-weighted coverage with the best passage's normalised BM25", () => {
    expect(confidenceScore(signals({ rareCoverage: 1, bestScore: 0 }), 0.25)).toBeCloseTo(0.25, 9);
    expect(confidenceScore(signals({ rareCoverage: 0, bestScore: 1 }), 0.25)).toBeCloseTo(0.75, 9);
    expect(confidenceScore(signals({ rareCoverage: 0.8, bestScore: 0.4 }), 0.5)).toBeCloseTo(0.6, 9);
  });

  it("happy: confident when the score or the nearest vector reaches its threshold", () => {
    expect(isConfident(signals({ rareCoverage: 0.4, bestScore: 0.3 }), thresholds)).toBe(true);
    expect(isConfident(signals({ rareCoverage: 0.2, bestScore: 0.1 }), thresholds)).toBe(false);
    expect(isConfident(signals({ topSimilarity: 0.7 }), thresholds)).toBe(true);
  });

  it("error: never confident when the question's distinctive words are missing from the knowledge", () => {
    expect(isConfident(signals({ rareCoverage: 1, bestScore: 1, topSimilarity: 1, unknownRareShare: 0.6 }), thresholds)).toBe(false);
  });

  it("happy: every embedder family has a coverage weight, and the environment's thresholds override it", () => {
    for (const id of ["hashing:v1:384", "local:Xenova/all-MiniLM-L6-v2", "openai:text-embedding-3-small", "other"]) {
      const { thresholds: t } = retrievalCalibrationFor(id);
      expect(t.coverageWeight).toBeGreaterThanOrEqual(0);
      expect(t.coverageWeight).toBeLessThanOrEqual(1);
    }
    expect(retrievalCalibrationFor("hashing:v1:384", { minCoverage: 0.9 }).thresholds.minCoverage).toBe(0.9);
  });
});
