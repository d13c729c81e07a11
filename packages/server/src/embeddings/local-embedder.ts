import path from "node:path";
import type { Embedder, EmbedderStatus, EmbeddingBatchListener } from "./embedder.js";
import { EmbeddingError } from "./embedding-error.js";
import { EmbeddingWorkerPool } from "./embedding-worker-pool.js";
import type { LocalEmbeddingWorkerData } from "./local-embedding-worker.js";
import { findLocalModelFiles, type LocalModelDtype } from "./local-model-files.js";
import { splitIntoBatches } from "./split-into-batches.js";

export const DEFAULT_LOCAL_MODEL = "Xenova/all-MiniLM-L6-v2";

export interface LocalEmbedderOptions {
  /** A Hugging Face model id. Default `Xenova/all-MiniLM-L6-v2` (384 dimensions). */
  modelId?: string;
  /** A directory holding `<org>/<name>/{config.json,tokenizer.json,onnx/model.onnx}` placed by hand. */
  modelDir?: string;
  /** Where downloaded models are cached (same layout), e.g. `<dataDir>/models`. */
  cacheDir: string;
  /** Whether the Hugging Face Hub may be asked for files not found locally. */
  allowRemoteModels: boolean;
  /** A Hugging Face Hub mirror to download from instead of https://huggingface.co/. */
  remoteHost?: string;
  /** Texts per worker batch. Default 32. */
  batchSize?: number;
  /** Worker threads, each with its own copy of the model. Default 1. */
  workerCount?: number;
  /** ONNX Runtime threads per worker; its default is one per core. */
  intraOpThreads?: number;
  /** Default: the compiled `local-embedding-worker.js` next to this module. */
  workerUrl?: URL;
  onBatch?: EmbeddingBatchListener;
}

/**
 * A transformers.js sentence-embedding model (mean pooling, L2 normalisation) running in a
 * pool of worker threads; the main thread only posts batches and receives vectors.
 */
export class LocalEmbedder implements Embedder {
  private constructor(
    readonly id: string,
    readonly dimensions: number,
    private readonly pool: EmbeddingWorkerPool,
    private readonly batchSize: number,
    private readonly onBatch: EmbeddingBatchListener | undefined,
  ) {}

  /**
   * Finds the model (model directory, then cache, then the Hub when allowed), loads it in
   * every worker and returns once it can embed. Throws EmbeddingError `model_unavailable`
   * when the model cannot be had.
   */
  static async open(options: LocalEmbedderOptions): Promise<LocalEmbedder> {
    const modelId = options.modelId ?? DEFAULT_LOCAL_MODEL;
    const roots = [options.modelDir, options.cacheDir].filter((root) => root !== undefined).map((root) => path.resolve(root));
    const found = await findLocalModelFiles(modelId, roots);
    if (found === undefined && !options.allowRemoteModels) {
      throw new EmbeddingError(
        "model_unavailable",
        `Embedding model ${modelId} was not found in ${roots.join(" or ")} (looked for ${modelId}/onnx/model.onnx ` +
          "and model_quantized.onnx) and downloading models is not allowed",
      );
    }
    const dtype: LocalModelDtype = found?.dtype ?? "fp32";
    const modelRoot = options.modelDir === undefined ? options.cacheDir : options.modelDir;
    const workerData: LocalEmbeddingWorkerData = {
      modelId,
      localModelPath: path.resolve(modelRoot),
      cacheDir: path.resolve(options.cacheDir),
      allowRemoteModels: options.allowRemoteModels,
      remoteHost: options.remoteHost,
      dtype,
      intraOpThreads: options.intraOpThreads,
    };
    const pool = new EmbeddingWorkerPool({
      workerUrl: options.workerUrl ?? new URL("./local-embedding-worker.js", import.meta.url),
      workerData,
      size: options.workerCount ?? 1,
      description: `local embedding model ${modelId}`,
    });
    try {
      const { dimensions } = await pool.start();
      const id = dtype === "fp32" ? `local:${modelId}` : `local:${modelId}:${dtype}`;
      return new LocalEmbedder(id, dimensions, pool, options.batchSize ?? 32, options.onBatch);
    } catch (error) {
      await pool.close();
      if (found !== undefined || !(error instanceof Error)) throw error;
      throw new EmbeddingError(
        "model_unavailable",
        `Embedding model ${modelId} was not found in ${roots.join(" or ")} and downloading it failed: ${error.message}`,
        { cause: error },
      );
    }
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const batches = splitIntoBatches(texts, this.batchSize);
    const results = await Promise.all(batches.map((batch) => this.embedBatch(batch)));
    return results.flat();
  }

  status(): EmbedderStatus {
    return { provider: "local", id: this.id, degraded: false };
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private async embedBatch(texts: string[]): Promise<Float32Array[]> {
    const started = performance.now();
    const { vectors, threadId } = await this.pool.run(texts);
    this.onBatch?.({ embedderId: this.id, size: texts.length, threadId, durationMs: performance.now() - started });
    return vectors;
  }
}
