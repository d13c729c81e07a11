import type { ConfidenceThresholds } from "../retrieve/retrieval-calibration.js";

/** What retrieval learned about how well the knowledge matches the question. */
export interface RetrievalSignals {
  /** Cosine similarity of the nearest chunk (0 when none). */
  topSimilarity: number;
  /** Share of the question's weight (Σ IDF of its words) found in one of the best passages. */
  topCoverage: number;
  /** Share of the question's weight in words the agent's knowledge never uses. */
  unknownShare: number;
  /** Share of the question's general-English rarity found in one of the best passages. */
  rareCoverage: number;
  /** Share of the question's general-English rarity in words the agent's knowledge never uses. */
  unknownRareShare: number;
  /** The best passage's BM25 score plus its proximity term (term-proximity.ts), over the most a passage could score for this question (0–1). */
  bestScore: number;
}

/**
 * How well the best passages answer the question, 0–1: the share of its distinctive words (by
 * general-English rarity) one of them holds, blended with the best passage's normalised BM25
 * score (which also counts how often and where those words appear). `coverageWeight` is the
 * share of the first; both parts are corpus-independent, so one calibration serves agents of any size.
 */
export function confidenceScore(signals: RetrievalSignals, coverageWeight: number): number {
  return coverageWeight * signals.rareCoverage + (1 - coverageWeight) * signals.bestScore;
}

/**
 * Why retrieval is sure or unsure of a question, as `isConfident` decides: the question's
 * distinctive words are missing from the knowledge (`unknown_words`), or the nearest passage is
 * close enough in meaning (`similar_passage`), or the best passages hold enough of its words
 * (`words_matched`), or neither (`weak_match`).
 */
export type ConfidenceReason = "unknown_words" | "similar_passage" | "words_matched" | "weak_match";

export function confidenceReason(signals: RetrievalSignals, thresholds: ConfidenceThresholds): ConfidenceReason {
  if (signals.unknownRareShare > thresholds.maxUnknownShare) return "unknown_words";
  if (signals.topSimilarity >= thresholds.minSimilarity) return "similar_passage";
  return confidenceScore(signals, thresholds.coverageWeight) >= thresholds.minCoverage ? "words_matched" : "weak_match";
}

/**
 * Grounded enough when the question's distinctive words are not missing from the knowledge
 * (a missing "much" costs nothing, a missing "coronavirus" nearly everything), and either the
 * nearest chunk is close enough or the confidence score reaches the threshold.
 */
export function isConfident(signals: RetrievalSignals, thresholds: ConfidenceThresholds): boolean {
  const reason = confidenceReason(signals, thresholds);
  return reason === "similar_passage" || reason === "words_matched";
}
