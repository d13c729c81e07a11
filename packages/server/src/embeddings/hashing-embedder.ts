import { threadId } from "node:worker_threads";
import type { EmbedOptions, Embedder, EmbedderStatus, EmbeddingBatchListener } from "./embedder.js";
import { EmbeddingWorkerPool } from "./embedding-worker-pool.js";
import { FEATURE_HASHING_VERSION, hashTextFeatures } from "./feature-hashing.js";
import type { HashingEmbeddingWorkerData } from "./hashing-embedding-worker.js";
import { splitIntoBatches } from "./split-into-batches.js";

export interface HashingEmbedderOptions {
  /** Default 384, the size of the local model's vectors, so a fallback fits the same index. */
  dimensions?: number;
  /** Texts per worker batch. Default 256. */
  batchSize?: number;
  /** Calls whose texts add up to at most this many characters are hashed on the calling thread. Default 4,096. */
  inlineCharacterLimit?: number;
  /** Worker threads for large calls. Default 1. */
  workerCount?: number;
  /** How long an idle worker thread lives before it exits. Default 30 s. */
  idleTimeoutMs?: number;
  /** Default: the compiled `hashing-embedding-worker.js` next to this module. */
  workerUrl?: URL;
  onBatch?: EmbeddingBatchListener;
}

export const DEFAULT_HASHING_DIMENSIONS = 384;

/**
 * No model, no network: signed feature hashing of words and character n-grams
 * (see feature-hashing.ts). A few short texts (a search query) are hashed in place, which
 * takes microseconds; anything larger goes to worker threads so the event loop stays free.
 */
export class HashingEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private readonly batchSize: number;
  private readonly inlineCharacterLimit: number;
  private readonly pool: EmbeddingWorkerPool;

  constructor(private readonly options: HashingEmbedderOptions = {}) {
    this.dimensions = options.dimensions ?? DEFAULT_HASHING_DIMENSIONS;
    if (!Number.isInteger(this.dimensions) || this.dimensions < 1) {
      throw new RangeError(`hashing dimensions must be a positive integer, got ${this.dimensions}`);
    }
    this.id = `hashing:v${FEATURE_HASHING_VERSION}:${this.dimensions}`;
    this.batchSize = options.batchSize ?? 256;
    this.inlineCharacterLimit = options.inlineCharacterLimit ?? 4_096;
    const workerData: HashingEmbeddingWorkerData = { dimensions: this.dimensions };
    this.pool = new EmbeddingWorkerPool({
      workerUrl: options.workerUrl ?? new URL("./hashing-embedding-worker.js", import.meta.url),
      workerData,
      size: options.workerCount ?? 1,
      idleTimeoutMs: options.idleTimeoutMs,
      description: "hashing embedder",
    });
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const characters = texts.reduce((total, text) => total + text.length, 0);
    if (characters <= this.inlineCharacterLimit) return this.embedInline(texts);
    const batches = await Promise.all(splitIntoBatches(texts, this.batchSize).map((batch) => this.embedInPool(batch, options.signal)));
    return batches.flat();
  }

  status(): EmbedderStatus {
    return { provider: "hashing", id: this.id, degraded: false };
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private embedInline(texts: readonly string[]): Float32Array[] {
    const started = performance.now();
    const vectors = texts.map((text) => hashTextFeatures(text, this.dimensions));
    this.report(texts.length, threadId, started);
    return vectors;
  }

  private async embedInPool(texts: string[], signal: AbortSignal | undefined): Promise<Float32Array[]> {
    const started = performance.now();
    const result = await this.pool.run(texts, { signal });
    this.report(texts.length, result.threadId, started);
    return result.vectors;
  }

  private report(size: number, batchThreadId: number, started: number): void {
    this.options.onBatch?.({ embedderId: this.id, size, threadId: batchThreadId, durationMs: performance.now() - started });
  }
}
