import { APICallError, RetryError } from "ai";
import { EmbeddingError } from "./embedding-error.js";

export interface EmbeddingsCallContext {
  /** The server's embeddings URL, e.g. `http://127.0.0.1:11434/v1/embeddings`. */
  url: string;
  model: string;
  timeoutMs: number;
  /** The caller's signal: when it fired, the call was aborted rather than failed. */
  signal: AbortSignal | undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * What an `embedMany` call to an OpenAI-compatible server threw, as an EmbeddingError: the AI
 * SDK's APICallError (alone, or as the last of a RetryError's attempts) carries the status and the
 * server's own message; a timeout and a refused connection mean the server is unavailable. The
 * message never contains the API key (the SDK's errors hold no request headers).
 */
export function toEmbeddingError(error: unknown, context: EmbeddingsCallContext): EmbeddingError {
  if (error instanceof EmbeddingError) return error;
  if (context.signal?.aborted) {
    return new EmbeddingError("aborted", `Embedding with ${context.model} at ${context.url} was aborted`, { cause: error });
  }
  const last = RetryError.isInstance(error) ? error.lastError : error;
  const attempts = RetryError.isInstance(error) ? ` (${error.errors.length} attempts)` : "";
  const server = `The embedding server at ${context.url}`;
  if (last instanceof Error && last.name === "TimeoutError") {
    return new EmbeddingError("provider_unavailable", `${server} did not answer within ${context.timeoutMs / 1_000} s${attempts}`, { cause: error });
  }
  if (!APICallError.isInstance(last)) {
    return new EmbeddingError("provider_unavailable", `${server} could not be used: ${messageOf(last)}${attempts}`, { cause: error });
  }
  const status = last.statusCode;
  if (status === undefined) {
    return new EmbeddingError("provider_unavailable", `${server} could not be reached: ${last.message}${attempts}`, { cause: error });
  }
  if (status < 300) {
    const detail = last.cause === undefined ? last.message : messageOf(last.cause);
    return new EmbeddingError("invalid_response", `${server} answered with a body that is not an embeddings list: ${detail.slice(0, 300)}`, {
      cause: error,
    });
  }
  const message = `${server} answered ${status} for model ${context.model}: ${last.message.slice(0, 500)}${attempts}`;
  if (last.isRetryable) return new EmbeddingError("provider_unavailable", message, { cause: error, status });
  const hint = status === 401 || status === 403 ? " (check the API key)" : "";
  return new EmbeddingError("provider_rejected", message + hint, { cause: error, status });
}
