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

/**
 * The lexical part of the thresholds, which does not depend on the embedder: calibrated on both
 * eval/ corpora together (`npm run eval` prints that calibration, "both sets together", and the
 * cross-validated figures; docs/benchmarks.md). Every family uses it.
 */
const LEXICAL_THRESHOLDS = { minCoverage: 0.2, maxUnknownShare: 0.8, coverageWeight: 0 };

const families: { prefix: string; calibration: RetrievalCalibration }[] = [
  // Calibrated with the lexical part (hashing is the only embedder that runs offline here): its
  // vectors are a weak semantic signal, so BM25 leads and the vectors only break ties.
  { prefix: "hashing:", calibration: { thresholds: { minSimilarity: 0.6, ...LEXICAL_THRESHOLDS }, fusion: { text: 1, vector: 0.02 } } },
  // Not calibrated here (no model files offline): the common operating point for MiniLM-class models.
  { prefix: "local:", calibration: { thresholds: { minSimilarity: 0.45, ...LEXICAL_THRESHOLDS }, fusion: { text: 1, vector: 1 } } },
  { prefix: "openai:", calibration: { thresholds: { minSimilarity: 0.4, ...LEXICAL_THRESHOLDS }, fusion: { text: 1, vector: 1 } } },
];

const fallback: RetrievalCalibration = { thresholds: { minSimilarity: 0.45, ...LEXICAL_THRESHOLDS }, fusion: { text: 1, vector: 1 } };

export function retrievalCalibrationFor(embedderId: string, overrides: Partial<ConfidenceThresholds> = {}): RetrievalCalibration {
  const base = families.find((family) => embedderId.startsWith(family.prefix))?.calibration ?? fallback;
  return { thresholds: { ...base.thresholds, ...overrides }, fusion: base.fusion };
}
