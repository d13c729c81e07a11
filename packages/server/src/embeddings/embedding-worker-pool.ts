import { Worker } from "node:worker_threads";
import { EmbeddingError } from "./embedding-error.js";
import { isEmbeddingWorkerReply, type EmbeddingWorkerRequest } from "./embedding-worker-protocol.js";

export interface EmbeddingWorkerPoolOptions {
  /** The compiled worker script, e.g. `new URL("./hashing-embedding-worker.js", import.meta.url)`. */
  workerUrl: URL;
  /** Passed to every worker as `workerData`; must be structured-cloneable. */
  workerData: unknown;
  size: number;
  /** Names the pool in error messages, e.g. "local embedding model Xenova/all-MiniLM-L6-v2". */
  description: string;
  /** How long `close()` waits for a worker to finish its batch before terminating it. */
  closeTimeoutMs?: number;
}

export interface PooledBatchResult {
  vectors: Float32Array[];
  threadId: number;
}

interface Task {
  taskId: number;
  texts: string[];
  resolve: (result: PooledBatchResult) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  ready: Promise<number>;
  isReady: boolean;
  task: Task | undefined;
}

/**
 * A fixed number of worker threads that each load an embedder once and then embed one batch
 * at a time, so CPU-heavy embedding never runs on the event loop. Workers start on first
 * use, a crashed worker is replaced on the next batch, and idle workers do not keep the
 * process alive.
 */
export class EmbeddingWorkerPool {
  private readonly slots = new Set<Slot>();
  private readonly queue: Task[] = [];
  private nextTaskId = 1;
  private closed = false;

  constructor(private readonly options: EmbeddingWorkerPoolOptions) {}

  /** Starts the workers and waits until every one has loaded; resolves with the vector size. */
  async start(): Promise<{ dimensions: number }> {
    if (this.closed) throw this.closedError();
    this.fillSlots();
    const dimensions = await Promise.all([...this.slots].map((slot) => slot.ready));
    return { dimensions: dimensions[0] ?? 0 };
  }

  run(texts: string[]): Promise<PooledBatchResult> {
    if (this.closed) return Promise.reject(this.closedError());
    this.fillSlots();
    return new Promise((resolve, reject) => {
      this.queue.push({ taskId: this.nextTaskId++, texts, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.rejectQueue(this.closedError());
    await Promise.all([...this.slots].map((slot) => this.stop(slot)));
  }

  private closedError(): EmbeddingError {
    return new EmbeddingError("closed", `The ${this.options.description} was closed`);
  }

  private fillSlots(): void {
    while (this.slots.size < this.options.size) this.spawn();
  }

  private spawn(): void {
    const worker = new Worker(this.options.workerUrl, { workerData: this.options.workerData });
    let markReady: (dimensions: number) => void = () => undefined;
    let failLoading: (error: Error) => void = () => undefined;
    const ready = new Promise<number>((resolve, reject) => {
      markReady = resolve;
      failLoading = reject;
    });
    const slot: Slot = { worker, ready, isReady: false, task: undefined };
    // A start() caller sees the failure; without one, queued tasks are rejected in `lose`.
    ready.catch(() => undefined);
    this.slots.add(slot);
    let lastError: Error | undefined;

    worker.on("message", (message: unknown) => {
      if (!isEmbeddingWorkerReply(message)) return;
      switch (message.type) {
        case "ready":
          slot.isReady = true;
          worker.unref();
          markReady(message.dimensions);
          this.dispatch();
          return;
        case "load_failed": {
          const error = new EmbeddingError(
            "model_unavailable",
            `The ${this.options.description} could not be loaded: ${message.message}`,
          );
          failLoading(error);
          this.lose(slot, error);
          return;
        }
        case "embedded":
          this.finish(slot, message.taskId, (task) => task.resolve({ vectors: message.vectors, threadId: worker.threadId }));
          return;
        case "embed_failed":
          this.finish(slot, message.taskId, (task) =>
            task.reject(new EmbeddingError("worker_failed", `The ${this.options.description} failed: ${message.message}`)),
          );
          return;
      }
    });
    worker.on("error", (error) => {
      lastError = error;
    });
    worker.on("exit", (code) => {
      const detail = lastError?.message ?? `the worker thread exited with code ${code}`;
      const error = new EmbeddingError("worker_failed", `The ${this.options.description} stopped: ${detail}`, {
        cause: lastError,
      });
      failLoading(error);
      this.lose(slot, error);
    });
  }

  private finish(slot: Slot, taskId: number, settle: (task: Task) => void): void {
    const task = slot.task;
    if (task === undefined || task.taskId !== taskId) return;
    slot.task = undefined;
    slot.worker.unref();
    settle(task);
    this.dispatch();
  }

  /** Forgets a worker that failed or exited; its batch fails, and queued batches fail when no worker is left. */
  private lose(slot: Slot, error: Error): void {
    if (!this.slots.delete(slot)) return;
    void slot.worker.terminate();
    slot.task?.reject(error);
    slot.task = undefined;
    if (this.closed || this.queue.length === 0) return;
    if (slot.isReady) {
      // A worker that crashed after loading is replaced; the queue waits for the new one.
      this.fillSlots();
      this.dispatch();
    } else if (this.slots.size === 0) {
      // Nothing could be loaded: fail now rather than respawn in a loop; the next batch tries again.
      this.rejectQueue(error);
    }
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (!slot.isReady || slot.task !== undefined) continue;
      const task = this.queue.shift();
      if (task === undefined) return;
      slot.task = task;
      slot.worker.ref();
      const request: EmbeddingWorkerRequest = { type: "embed", taskId: task.taskId, texts: task.texts };
      slot.worker.postMessage(request);
    }
  }

  private rejectQueue(error: Error): void {
    for (const task of this.queue.splice(0)) task.reject(error);
  }

  private async stop(slot: Slot): Promise<void> {
    const exited = new Promise<void>((resolve) => slot.worker.once("exit", () => resolve()));
    const request: EmbeddingWorkerRequest = { type: "close" };
    slot.worker.ref();
    slot.worker.postMessage(request);
    const timer = setTimeout(() => void slot.worker.terminate(), this.options.closeTimeoutMs ?? 5_000);
    timer.unref();
    await exited;
    clearTimeout(timer);
  }
}
