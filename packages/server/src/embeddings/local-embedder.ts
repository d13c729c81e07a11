import path from "node:path";
import type { EmbedOptions, Embedder, EmbedderStatus, EmbeddingBatchListener } from "./embedder.js";
import { EmbeddingWorkerPool } from "./embedding-worker-pool.js";
import type { LocalEmbeddingWorkerData } from "./local-embedding-worker.js";
import { downloadLocalModel } from "./local-model-download.js";
import { findLocalModelFiles, weightsFileFor, type LocalModelFiles } from "./local-model-files.js";
import { LocalModelUnavailableError } from "./local-model-unavailable-error.js";
import { assertLocalRuntimeInstalled } from "./local-runtime.js";
import { splitIntoBatches } from "./split-into-batches.js";

export const DEFAULT_LOCAL_MODEL = "Xenova/all-MiniLM-L6-v2";

export interface LocalEmbedderOptions {
  /** A Hugging Face model id. Default `Xenova/all-MiniLM-L6-v2` (384 dimensions). */
  modelId?: string;
  /** A directory holding `<org>/<name>/{config.json,tokenizer.json,tokenizer_config.json,onnx/model.onnx}` placed by hand. */
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
  /** How long an idle worker keeps the model loaded before its thread exits (the next batch loads it again). Default 30 s. */
  idleTimeoutMs?: number;
  /** Worker threads kept, model loaded, even when idle. Default 0. */
  minWorkers?: number;
  /** ONNX Runtime threads per worker; its default is one per core. */
  intraOpThreads?: number;
  /** Default: the compiled `local-embedding-worker.js` next to this module. */
  workerUrl?: URL;
  /** The packages checked before anything loads; default LOCAL_RUNTIME_PACKAGES. */
  runtimePackages?: readonly string[];
  onBatch?: EmbeddingBatchListener;
}

/**
 * A sentence-embedding model (ONNX Runtime, mean pooling, L2 normalisation) running in a pool
 * of worker threads; the main thread only posts batches and receives vectors, and never loads
 * ONNX Runtime itself.
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
   * Finds the model (model directory, then cache, then the Hub when allowed, downloading into
   * the cache), loads it in a worker thread and returns once it can embed. Throws
   * LocalModelUnavailableError (EmbeddingError `model_unavailable`) saying which problem it met.
   */
  static async open(options: LocalEmbedderOptions): Promise<LocalEmbedder> {
    const modelId = options.modelId ?? DEFAULT_LOCAL_MODEL;
    try {
      assertLocalRuntimeInstalled(options.runtimePackages);
    } catch (error) {
      throw new LocalModelUnavailableError("runtime_missing", error instanceof Error ? error.message : String(error), { cause: error });
    }
    const files = await LocalEmbedder.findOrDownload(modelId, options);
    const workerData: LocalEmbeddingWorkerData = {
      directory: files.directory,
      weights: weightsFileFor(files.dtype),
      intraOpThreads: options.intraOpThreads,
    };
    const pool = new EmbeddingWorkerPool({
      workerUrl: options.workerUrl ?? new URL("./local-embedding-worker.js", import.meta.url),
      workerData,
      size: options.workerCount ?? 1,
      minThreads: options.minWorkers,
      idleTimeoutMs: options.idleTimeoutMs,
      description: `local embedding model ${modelId}`,
    });
    try {
      const { dimensions } = await pool.start();
      const id = files.dtype === "fp32" ? `local:${modelId}` : `local:${modelId}:${files.dtype}`;
      return new LocalEmbedder(id, dimensions, pool, options.batchSize ?? 32, options.onBatch);
    } catch (error) {
      await pool.close();
      const message = error instanceof Error ? error.message : String(error);
      throw new LocalModelUnavailableError("load_failed", `${message} (from ${files.directory})`, {
        cause: error,
        detail: message.replace(/^The .+? could not be loaded: /, ""),
      });
    }
  }

  private static async findOrDownload(modelId: string, options: LocalEmbedderOptions): Promise<LocalModelFiles> {
    const roots = [options.modelDir, options.cacheDir].filter((root) => root !== undefined).map((root) => path.resolve(root));
    const found = await findLocalModelFiles(modelId, roots);
    if (found !== undefined) return found;
    if (!options.allowRemoteModels) {
      throw new LocalModelUnavailableError(
        "not_found",
        `Embedding model ${modelId} is not in ${roots.join(" or ")} and downloading models is off`,
      );
    }
    try {
      return await downloadLocalModel({ modelId, cacheDir: path.resolve(options.cacheDir), remoteHost: options.remoteHost, dtype: "fp32" });
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw new LocalModelUnavailableError("download_failed", `Embedding model ${modelId} could not be downloaded from ${detail}`, {
        cause: error,
        detail,
      });
    }
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    const batches = splitIntoBatches(texts, this.batchSize);
    const results = await Promise.all(batches.map((batch) => this.embedBatch(batch, options.signal)));
    return results.flat();
  }

  status(): EmbedderStatus {
    return { provider: "local", id: this.id, degraded: false };
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private async embedBatch(texts: string[], signal: AbortSignal | undefined): Promise<Float32Array[]> {
    const started = performance.now();
    const { vectors, threadId } = await this.pool.run(texts, { signal });
    this.onBatch?.({ embedderId: this.id, size: texts.length, threadId, durationMs: performance.now() - started });
    return vectors;
  }
}
