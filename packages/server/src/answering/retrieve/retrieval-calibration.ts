/**
 * How retrieval is tuned for an embedder. Similarities and the worth of the vector side depend on
 * the embedder, so each family has its own defaults, calibrated by `npm run eval` where the
 * embedder can run (see docs/benchmarks.md). FRONTDESK_RETRIEVAL_MIN_SIMILARITY and
 * FRONTDESK_RETRIEVAL_MIN_COVERAGE override the thresholds.
 */
export interface ConfidenceThresholds {
  /** Grounded when the nearest chunk's cosine similarity reaches this… */
  minSimilarity: number;
  /** …or when the confidence score (see confidence/retrieval-confidence.ts) reaches this… */
  minCoverage: number;
  /** …unless more than this share of the question's general-English rarity is in words the knowledge never uses. */
  maxUnknownShare: number;
  /** The share of rarity-weighted coverage in the confidence score (the rest is the best passage's normalised BM25). */
  coverageWeight: number;
}

export interface RetrievalCalibration {
  thresholds: ConfidenceThresholds;
  /** Weights of the two rankings in reciprocal rank fusion. */
  fusion: { text: number; vector: number };
}

const families: { prefix: string; calibration: RetrievalCalibration }[] = [
  // Calibrated on both eval/ corpora together (hashing is the only embedder that runs offline here;
  // cross-validated figures in docs/benchmarks.md): its vectors are a weak semantic signal, so BM25
  // leads and the vectors only break ties. The lexical part (minCoverage, coverageWeight,
  // maxUnknownShare) does not depend on the embedder; the other families reuse it.
  { prefix: "hashing:", calibration: { thresholds: { minSimilarity: 0.6, minCoverage: 0.24, maxUnknownShare: 0.9, coverageWeight: 0.2 }, fusion: { text: 1, vector: 0.02 } } },
  // Not calibrated here (no model files offline): the common operating point for MiniLM-class models.
  { prefix: "local:", calibration: { thresholds: { minSimilarity: 0.45, minCoverage: 0.24, maxUnknownShare: 0.9, coverageWeight: 0.2 }, fusion: { text: 1, vector: 1 } } },
  { prefix: "openai:", calibration: { thresholds: { minSimilarity: 0.4, minCoverage: 0.24, maxUnknownShare: 0.9, coverageWeight: 0.2 }, fusion: { text: 1, vector: 1 } } },
];

const fallback: RetrievalCalibration = { thresholds: { minSimilarity: 0.45, minCoverage: 0.24, maxUnknownShare: 0.9, coverageWeight: 0.2 }, fusion: { text: 1, vector: 1 } };

export function retrievalCalibrationFor(embedderId: string, overrides: Partial<ConfidenceThresholds> = {}): RetrievalCalibration {
  const base = families.find((family) => embedderId.startsWith(family.prefix))?.calibration ?? fallback;
  return { thresholds: { ...base.thresholds, ...overrides }, fusion: base.fusion };
}
