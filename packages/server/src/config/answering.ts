/** The answering part of the service configuration: which generator writes replies. */
export type AnswerProvider = "extractive" | "openai" | "anthropic";

export interface AnswerGeneratorConfig {
  /** Default in the service config: `extractive`. */
  provider: AnswerProvider;
  /**
   * `openai`: any OpenAI-compatible server (default https://api.openai.com/v1); `anthropic`:
   * default https://api.anthropic.com/v1. A bare origin gets `/v1`; any other path is kept
   * as given (Azure, Groq's `/openai/v1` …).
   */
  baseUrl?: string;
  /** `openai`: sent as a bearer token, optional for local servers; `anthropic`: required. */
  apiKey?: string;
  /** Required for `openai` and `anthropic`, e.g. `gpt-4o-mini`, `llama3.1`, `claude-haiku-4-5`. */
  model?: string;
  /** How long the model may take to its first token (and between chunks) before the extractive answer is used. Default 20. */
  timeoutSeconds?: number;
}

/** Overrides of the calibrated low-confidence thresholds (FRONTDESK_RETRIEVAL_MIN_SIMILARITY, FRONTDESK_RETRIEVAL_MIN_COVERAGE). */
export interface RetrievalThresholdOverrides {
  minSimilarity?: number;
  minCoverage?: number;
  maxUnknownShare?: number;
  coverageWeight?: number;
}
