import { ThreadPool } from "../threads/thread-pool.js";
import { ThreadPoolError } from "../threads/thread-pool-error.js";
import { EmbeddingError } from "./embedding-error.js";
import type { EmbeddingTask, EmbeddingTaskResult } from "./embedding-worker-protocol.js";

export interface EmbeddingWorkerPoolOptions {
  /** The compiled worker module, e.g. `new URL("./hashing-embedding-worker.js", import.meta.url)`. */
  workerUrl: URL;
  /** Passed to every worker as `workerData`; must be structured-cloneable. */
  workerData: unknown;
  /** The most worker threads, each with its own copy of the embedder. */
  size: number;
  /** Names the pool in error messages, e.g. "local embedding model Xenova/all-MiniLM-L6-v2". */
  description: string;
  /** Threads kept loaded while idle. Default 0: an idle service holds no embedder in memory. */
  minThreads?: number;
  /** How long an idle thread keeps its embedder before it exits. Default 30 s. */
  idleTimeoutMs?: number;
  /** Batches that may wait for a thread before more are refused (`overloaded`). Default 1,000. */
  maxQueue?: number;
  /** How long `close()` waits for a worker to finish its batch before terminating it. */
  closeTimeoutMs?: number;
}

export interface PooledBatchResult {
  vectors: Float32Array[];
  threadId: number;
}

/**
 * Worker threads that each load an embedder once and then embed one batch at a time, so
 * CPU-heavy embedding never runs on the event loop. Threads start on demand and exit when idle;
 * a crashed thread fails its batch and the next batch starts a new one. Every failure is an
 * EmbeddingError.
 */
export class EmbeddingWorkerPool {
  private readonly pool: ThreadPool<EmbeddingTask, EmbeddingTaskResult>;

  constructor(private readonly options: EmbeddingWorkerPoolOptions) {
    this.pool = new ThreadPool({
      workerUrl: options.workerUrl,
      workerData: options.workerData,
      description: options.description,
      maxThreads: options.size,
      minThreads: options.minThreads,
      idleTimeoutMs: options.idleTimeoutMs,
      maxQueue: options.maxQueue,
      closeTimeoutMs: options.closeTimeoutMs,
    });
  }

  /** Worker threads alive now; 0 once they have all sat idle past the idle timeout. */
  get threadCount(): number {
    return this.pool.threadCount;
  }

  /** Loads the embedder in one thread (which stays until idle) and resolves with its vector size. */
  async start(options: { signal?: AbortSignal } = {}): Promise<{ dimensions: number }> {
    const { dimensions } = await this.embedded({ texts: [] }, options.signal);
    return { dimensions };
  }

  async run(texts: string[], options: { signal?: AbortSignal } = {}): Promise<PooledBatchResult> {
    const { vectors, threadId } = await this.embedded({ texts }, options.signal);
    return { vectors, threadId };
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private async embedded(task: EmbeddingTask, signal: AbortSignal | undefined): Promise<EmbeddingTaskResult & { kind: "embedded" }> {
    let result: EmbeddingTaskResult;
    try {
      result = await this.pool.run(task, { signal });
    } catch (error) {
      throw this.explain(error);
    }
    if (result.kind === "load_failed") {
      throw new EmbeddingError("model_unavailable", `The ${this.options.description} could not be loaded: ${result.message}`);
    }
    return result;
  }

  private explain(error: unknown): EmbeddingError {
    const description = this.options.description;
    if (!(error instanceof ThreadPoolError)) {
      return new EmbeddingError("worker_failed", `The ${description} failed: ${String(error)}`, { cause: error });
    }
    switch (error.failure) {
      case "closed":
        return new EmbeddingError("closed", `The ${description} was closed`, { cause: error });
      case "aborted":
        return new EmbeddingError("aborted", `Embedding with the ${description} was aborted`, { cause: error });
      case "queue_full":
        return new EmbeddingError("overloaded", error.message, { cause: error });
      case "thread_failed_to_start":
        return new EmbeddingError("model_unavailable", error.message, { cause: error });
      case "thread_stopped":
        return new EmbeddingError("worker_failed", error.message, { cause: error });
      case "task_failed":
        return new EmbeddingError("worker_failed", `The ${description} failed: ${error.message}`, { cause: error });
    }
  }
}
