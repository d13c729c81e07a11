export type EmbeddingFailure =
  | "invalid_config"
  | "model_unavailable"
  | "provider_rejected"
  | "provider_unavailable"
  | "invalid_response"
  | "worker_failed"
  /** Every worker thread is busy and the pool's queue is full. */
  | "overloaded"
  /** The caller's AbortSignal fired. */
  | "aborted"
  | "closed";

/** Why embedding failed; the message says what to fix and never contains a credential. */
export class EmbeddingError extends Error {
  /** The HTTP status an embedding server answered with, when there was one. */
  readonly status: number | undefined;

  constructor(
    readonly failure: EmbeddingFailure,
    message: string,
    options: { cause?: unknown; status?: number } = {},
  ) {
    super(message, "cause" in options ? { cause: options.cause } : undefined);
    this.name = "EmbeddingError";
    this.status = options.status;
  }
}
