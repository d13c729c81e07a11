/**
 * When retrieval counts as grounded. Similarities depend on the embedder, so each family has its
 * own calibrated default (see eval/ and docs/benchmarks.md); FRONTDESK_RETRIEVAL_MIN_SIMILARITY
 * and FRONTDESK_RETRIEVAL_MIN_COVERAGE override them.
 */
export interface ConfidenceThresholds {
  minSimilarity: number;
  minCoverage: number;
}

const defaults: { prefix: string; thresholds: ConfidenceThresholds }[] = [
  { prefix: "hashing:", thresholds: { minSimilarity: 0.35, minCoverage: 0.6 } },
  { prefix: "local:", thresholds: { minSimilarity: 0.45, minCoverage: 0.6 } },
  { prefix: "openai:", thresholds: { minSimilarity: 0.4, minCoverage: 0.6 } },
];

export function confidenceThresholdsFor(embedderId: string, overrides: Partial<ConfidenceThresholds> = {}): ConfidenceThresholds {
  const base = defaults.find((entry) => embedderId.startsWith(entry.prefix))?.thresholds ?? { minSimilarity: 0.4, minCoverage: 0.6 };
  return { ...base, ...overrides };
}
