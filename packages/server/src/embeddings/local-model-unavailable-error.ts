import { EmbeddingError } from "./embedding-error.js";

/**
 * Why a local model could not be had: it is nowhere on disk and downloads are off, fetching it
 * failed, the runtime packages are not installed, or its files are there but do not load.
 */
export type LocalModelProblem = "not_found" | "download_failed" | "runtime_missing" | "load_failed";

/** EmbeddingError `model_unavailable` of the local provider, saying which problem it met. */
export class LocalModelUnavailableError extends EmbeddingError {
  /** The bare cause, e.g. `http://127.0.0.1:9/…/config.json: ECONNREFUSED`; the message when not given. */
  readonly detail: string;

  constructor(
    readonly problem: LocalModelProblem,
    message: string,
    options: { cause?: unknown; detail?: string } = {},
  ) {
    super("model_unavailable", message, "cause" in options ? { cause: options.cause } : {});
    this.name = "LocalModelUnavailableError";
    this.detail = options.detail ?? message;
  }
}
