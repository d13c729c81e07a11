/** The providers a deployment can choose between. */
export type EmbeddingProvider = "local" | "openai" | "hashing";

/** What /healthz shows about the embedder in use. */
export interface EmbedderStatus {
  /** The provider actually embedding, which is `hashing` after a fallback. */
  provider: EmbeddingProvider;
  id: string;
  /** True when the configured provider could not be had and a weaker one stands in. */
  degraded: boolean;
  reason?: string;
}

/** Reported after every batch: enough for metrics and for tests to see where the work ran. */
export interface EmbeddingBatchReport {
  embedderId: string;
  size: number;
  /** `node:worker_threads` threadId of the thread that computed the vectors (0 is the main thread). */
  threadId: number;
  durationMs: number;
}

export type EmbeddingBatchListener = (report: EmbeddingBatchReport) => void;

export interface EmbedOptions {
  /** Stops the call: it rejects with EmbeddingError `aborted` (a batch running on a worker thread ends that thread). */
  signal?: AbortSignal;
}

/**
 * Turns texts into vectors. Every provider returns one L2-normalised Float32Array of
 * `dimensions` numbers per text, in input order.
 */
export interface Embedder {
  /** Stable identity recorded with every vector, e.g. `local:Xenova/all-MiniLM-L6-v2` or `hashing:v1:384`. */
  readonly id: string;
  readonly dimensions: number;
  embed(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]>;
  status(): EmbedderStatus;
  close(): Promise<void>;
}
