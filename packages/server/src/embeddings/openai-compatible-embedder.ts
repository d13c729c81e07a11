import { setTimeout as sleep } from "node:timers/promises";
import { threadId } from "node:worker_threads";
import type { Embedder, EmbedderStatus, EmbeddingBatchListener } from "./embedder.js";
import { EmbeddingError } from "./embedding-error.js";
import { l2NormaliseInPlace } from "./l2-normalise.js";
import { openAiEmbeddingsResponseSchema, openAiErrorResponseSchema } from "./openai-embeddings-response.js";
import { retryDelayMs } from "./retry-delay.js";
import { splitIntoBatches } from "./split-into-batches.js";

export interface OpenAiCompatibleEmbedderOptions {
  /** The server, with or without a trailing `/v1`, e.g. `https://api.openai.com` or `http://127.0.0.1:11434/v1`. */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Sent as `dimensions` when set; otherwise the model's known size is assumed. Required for unknown models. */
  dimensions?: number;
  /** Texts per request. Default 64. */
  batchSize?: number;
  /** Retries after a 429, a 5xx or a network failure. Default 4. */
  maxRetries?: number;
  /** First back-off delay; it doubles with each retry. Default 500 ms. */
  retryBaseDelayMs?: number;
  /** Upper bound for one back-off delay, including a server's Retry-After. Default 20 s. */
  maxRetryDelayMs?: number;
  /** Per request. Default 60 s. */
  timeoutMs?: number;
  onBatch?: EmbeddingBatchListener;
}

/** Sizes of well-known models, so that `dimensions` need not be configured for them. */
const KNOWN_MODEL_DIMENSIONS: Readonly<Record<string, number>> = {
  "text-embedding-3-small": 1536,
  "text-embedding-3-large": 3072,
  "text-embedding-ada-002": 1536,
};

/** `POST {baseUrl}/v1/embeddings` whether or not the configured base URL already ends in /v1. */
function embeddingsUrl(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, "");
  return /\/v1$/.test(trimmed) ? `${trimmed}/embeddings` : `${trimmed}/v1/embeddings`;
}

type PostOutcome =
  | { kind: "ok"; body: unknown }
  | { kind: "rejected"; error: EmbeddingError }
  | { kind: "retryable"; error: EmbeddingError; retryAfter: string | null };

function isRetryable(status: number): boolean {
  return status === 429 || status >= 500;
}

/** Any OpenAI-compatible embeddings endpoint (OpenAI, Azure-style proxies, Ollama, vLLM, LM Studio …). */
export class OpenAiCompatibleEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private readonly url: string;

  constructor(private readonly options: OpenAiCompatibleEmbedderOptions) {
    const dimensions = options.dimensions ?? KNOWN_MODEL_DIMENSIONS[options.model];
    if (dimensions === undefined) {
      throw new EmbeddingError(
        "invalid_config",
        `The dimensions of embedding model ${options.model} are unknown; configure them (FRONTDESK_EMBEDDINGS_DIMENSIONS)`,
      );
    }
    try {
      this.url = embeddingsUrl(new URL(options.baseUrl).toString());
    } catch (error) {
      throw new EmbeddingError("invalid_config", `The embeddings base URL "${options.baseUrl}" is not a URL`, { cause: error });
    }
    this.dimensions = dimensions;
    this.id = `openai:${options.model}:${dimensions}`;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const batches = splitIntoBatches(texts, this.options.batchSize ?? 64);
    const vectors: Float32Array[] = [];
    // One request at a time: a rate-limited server is not helped by parallel requests.
    for (const batch of batches) vectors.push(...(await this.embedBatch(batch)));
    return vectors;
  }

  status(): EmbedderStatus {
    return { provider: "openai", id: this.id, degraded: false };
  }

  async close(): Promise<void> {}

  private async embedBatch(texts: string[]): Promise<Float32Array[]> {
    const started = performance.now();
    const body = await this.postWithRetries(texts);
    const vectors = this.parseVectors(body, texts.length);
    this.options.onBatch?.({ embedderId: this.id, size: texts.length, threadId, durationMs: performance.now() - started });
    return vectors;
  }

  private async postWithRetries(texts: string[]): Promise<unknown> {
    const maxRetries = this.options.maxRetries ?? 4;
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.post(texts);
      if (outcome.kind === "ok") return outcome.body;
      if (outcome.kind === "rejected" || attempt >= maxRetries) throw outcome.error;
      await sleep(
        retryDelayMs(attempt, {
          baseDelayMs: this.options.retryBaseDelayMs ?? 500,
          maxDelayMs: this.options.maxRetryDelayMs ?? 20_000,
          retryAfter: outcome.retryAfter,
        }),
      );
    }
  }

  private async post(texts: string[]): Promise<PostOutcome> {
    const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    // JSON.stringify leaves `dimensions` out when it is not configured.
    const payload = { model: this.options.model, input: texts, dimensions: this.options.dimensions };
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: "POST",
        headers,
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 60_000),
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const message = `The embedding server at ${this.url} could not be reached: ${reason}`;
      return { kind: "retryable", error: new EmbeddingError("provider_unavailable", message, { cause: error }), retryAfter: null };
    }
    const text = await response.text().catch(() => "");
    if (response.ok) {
      try {
        return { kind: "ok", body: JSON.parse(text) };
      } catch (error) {
        const message = `The embedding server at ${this.url} answered with invalid JSON`;
        return { kind: "rejected", error: new EmbeddingError("invalid_response", message, { cause: error }) };
      }
    }
    const detail = this.errorDetail(text);
    const message = `The embedding server at ${this.url} answered ${response.status} for model ${this.options.model}${detail}`;
    if (isRetryable(response.status)) {
      const error = new EmbeddingError("provider_unavailable", message, { status: response.status });
      return { kind: "retryable", error, retryAfter: response.headers.get("retry-after") };
    }
    const hint = response.status === 401 || response.status === 403 ? " (check the API key)" : "";
    return { kind: "rejected", error: new EmbeddingError("provider_rejected", message + hint, { status: response.status }) };
  }

  private errorDetail(text: string): string {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return "";
    }
    const body = openAiErrorResponseSchema.safeParse(parsed);
    if (!body.success) return "";
    const message = typeof body.data.error === "string" ? body.data.error : body.data.error.message;
    return `: ${message.slice(0, 500)}`;
  }

  private parseVectors(body: unknown, expected: number): Float32Array[] {
    const parsed = openAiEmbeddingsResponseSchema.safeParse(body);
    const invalid = (problem: string): EmbeddingError =>
      new EmbeddingError("invalid_response", `The embedding server at ${this.url} ${problem}`);
    if (!parsed.success) throw invalid("answered without a valid `data` array of {index, embedding}");
    const vectors = new Array<Float32Array | undefined>(expected).fill(undefined);
    for (const item of parsed.data.data) {
      if (item.index >= expected || vectors[item.index] !== undefined) {
        throw invalid(`answered with an unexpected or repeated index ${item.index} for ${expected} inputs`);
      }
      if (item.embedding.length !== this.dimensions) {
        throw invalid(`answered with ${item.embedding.length}-dimensional vectors; ${this.dimensions} were expected`);
      }
      vectors[item.index] = l2NormaliseInPlace(Float32Array.from(item.embedding));
    }
    return vectors.map((vector, index) => {
      if (vector === undefined) throw invalid(`answered without a vector for input ${index}`);
      return vector;
    });
  }
}
