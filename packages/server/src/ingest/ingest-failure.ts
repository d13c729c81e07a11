import { EmbeddingError } from "../embeddings/embedding-error.js";
import { FetchError } from "./fetch/fetch-error.js";

/** Why a page or source could not be indexed: a stable code, a message, and whether a retry may help. */
export class IngestFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly transient = false,
  ) {
    super(message);
    this.name = "IngestFailure";
  }

  get detail(): { code: string; message: string } {
    return { code: this.code, message: this.message };
  }
}

/** Maps whatever a stage threw to an IngestFailure. */
export function toIngestFailure(error: unknown): IngestFailure {
  if (error instanceof IngestFailure) return error;
  if (error instanceof FetchError) return new IngestFailure(error.code, error.message, error.transient);
  if (error instanceof EmbeddingError) {
    const transient = error.failure === "provider_unavailable" || error.failure === "worker_failed";
    return new IngestFailure("embedding_failed", error.message, transient);
  }
  return new IngestFailure("internal_error", error instanceof Error ? error.message : String(error), true);
}
