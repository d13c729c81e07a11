import { threadId } from "node:worker_threads";
import { OpenAICompatibleEmbeddingModel } from "@ai-sdk/openai-compatible";
import { embedMany } from "ai";
import type { EmbedOptions, Embedder, EmbedderStatus, EmbeddingBatchListener } from "./embedder.js";
import { toEmbeddingError } from "./embeddings-call-error.js";
import { createEmbeddingsFetch, type GuardedRoute } from "./embeddings-fetch.js";
import { EmbeddingError } from "./embedding-error.js";
import { l2NormaliseInPlace } from "./l2-normalise.js";

export interface OpenAiCompatibleEmbedderOptions {
  /** The server, with or without a trailing `/v1`, e.g. `https://api.openai.com` or `http://127.0.0.1:11434/v1`. */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Sent as `dimensions` when set; otherwise the model's known size is assumed. Required for unknown models. */
  dimensions?: number;
  /** Texts per request. Default 64. */
  batchSize?: number;
  /**
   * Retries of a request after a 429, a 5xx or a network failure. Default 2. The AI SDK waits
   * 2 s, then twice as long each time, or what the server asks in Retry-After / retry-after-ms.
   */
  maxRetries?: number;
  /** Per request. Default 60 s. */
  timeoutMs?: number;
  onBatch?: EmbeddingBatchListener;
  /** Where requests go through: a workspace's server is reached through the SSRF guard's agent (network/guarded-agent.ts). */
  guarded?: GuardedRoute;
}

/** Sizes of well-known models, so that `dimensions` need not be configured for them. */
const KNOWN_MODEL_DIMENSIONS: Readonly<Record<string, number>> = {
  "text-embedding-3-small": 1536,
  "text-embedding-3-large": 3072,
  "text-embedding-ada-002": 1536,
};

/** Names this client to the AI SDK, and keys its provider options. */
const PROVIDER = "frontdesk";

/** `{baseUrl}/v1` whether or not the configured base URL already ends in /v1. */
function apiBase(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, "");
  return /\/v1$/.test(trimmed) ? trimmed : `${trimmed}/v1`;
}

/**
 * Any OpenAI-compatible embeddings endpoint (OpenAI, Azure-style proxies, Ollama, vLLM, LM Studio …),
 * through the AI SDK's `embedMany`: it batches, retries and parses; this class adds the vector size
 * check, the L2 normalisation and Frontdesk's errors.
 */
export class OpenAiCompatibleEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private readonly url: string;
  private readonly model: OpenAICompatibleEmbeddingModel;

  constructor(private readonly options: OpenAiCompatibleEmbedderOptions) {
    const dimensions = options.dimensions ?? KNOWN_MODEL_DIMENSIONS[options.model];
    if (dimensions === undefined) {
      throw new EmbeddingError(
        "invalid_config",
        `The dimensions of embedding model ${options.model} are unknown; configure them (FRONTDESK_EMBEDDINGS_DIMENSIONS)`,
      );
    }
    let base: string;
    try {
      base = apiBase(new URL(options.baseUrl).toString());
    } catch (error) {
      throw new EmbeddingError("invalid_config", `The embeddings base URL "${options.baseUrl}" is not a URL`, { cause: error });
    }
    const batchSize = options.batchSize ?? 64;
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batch size must be a positive integer, got ${batchSize}`);
    this.url = `${base}/embeddings`;
    this.dimensions = dimensions;
    this.id = `openai:${options.model}:${dimensions}`;
    this.model = new OpenAICompatibleEmbeddingModel(options.model, {
      provider: `${PROVIDER}.embedding`,
      url: ({ path }) => `${base}${path}`,
      headers: () => (options.apiKey ? { Authorization: `Bearer ${options.apiKey}` } : {}),
      maxEmbeddingsPerCall: batchSize,
      // One request at a time: a rate-limited server is not helped by parallel requests.
      supportsParallelCalls: false,
      fetch: createEmbeddingsFetch(options.timeoutMs ?? 60_000, options.guarded),
    });
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const started = performance.now();
    let embeddings: number[][];
    try {
      ({ embeddings } = await embedMany({
        model: this.model,
        values: [...texts],
        maxRetries: this.options.maxRetries ?? 2,
        maxParallelCalls: 1,
        abortSignal: options.signal,
        // Without configured dimensions none are sent: the model's own size applies.
        ...(this.options.dimensions === undefined ? {} : { providerOptions: { [PROVIDER]: { dimensions: this.options.dimensions } } }),
      }));
    } catch (error) {
      throw toEmbeddingError(error, { url: this.url, model: this.options.model, timeoutMs: this.options.timeoutMs ?? 60_000, signal: options.signal });
    }
    const vectors = this.toVectors(embeddings, texts.length);
    this.options.onBatch?.({ embedderId: this.id, size: texts.length, threadId, durationMs: performance.now() - started });
    return vectors;
  }

  status(): EmbedderStatus {
    return { provider: "openai", id: this.id, degraded: false };
  }

  async close(): Promise<void> {}

  private toVectors(embeddings: number[][], expected: number): Float32Array[] {
    const invalid = (problem: string): EmbeddingError =>
      new EmbeddingError("invalid_response", `The embedding server at ${this.url} ${problem}`);
    if (embeddings.length !== expected) throw invalid(`answered with ${embeddings.length} vectors for ${expected} inputs`);
    return embeddings.map((embedding) => {
      if (embedding.length !== this.dimensions) {
        throw invalid(`answered with ${embedding.length}-dimensional vectors; ${this.dimensions} were expected`);
      }
      return l2NormaliseInPlace(Float32Array.from(embedding));
    });
  }
}
