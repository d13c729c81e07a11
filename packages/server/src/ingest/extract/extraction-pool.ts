import { Worker } from "node:worker_threads";
import type { DocumentChunk } from "../chunk/document-chunk.js";
import type { ExtractedDocument, ExtractInput } from "./extracted-document.js";
import { isExtractionResponse } from "./extraction-messages.js";
import type { ExtractionRequest } from "./extraction-messages.js";

export interface ExtractionPoolOptions {
  /** The most worker threads running at once; they start on demand. */
  size: number;
  /**
   * The worker entry point. Defaults to the compiled `extract-worker.js` next to this file; tests
   * that run from TypeScript sources point it at the built file in `dist`.
   */
  workerUrl?: URL;
}

/** A page extracted and cut into chunks. */
export interface PreparedDocument {
  document: ExtractedDocument;
  chunks: DocumentChunk[];
}

/** Runs `extractDocument` on worker threads so that parsing never blocks the event loop. */
export interface ExtractionPool {
  /** Extracts one page; rejects when extraction throws, the worker dies, or the pool closes. */
  extract(input: ExtractInput): Promise<ExtractedDocument>;
  /** Extracts one page and chunks it, both on a worker thread. */
  prepare(input: ExtractInput): Promise<PreparedDocument>;
  /** Rejects queued and running extractions and stops every worker. */
  close(): Promise<void>;
}

/** Creates a pool of at most `size` extraction workers, started when work arrives. */
export function createExtractionPool(options: ExtractionPoolOptions): ExtractionPool {
  if (!Number.isInteger(options.size) || options.size < 1) {
    throw new RangeError(`extraction pool size must be a positive integer, got ${options.size}`);
  }
  return new WorkerExtractionPool(options.size, options.workerUrl ?? new URL("./extract-worker.js", import.meta.url));
}

interface Task {
  id: number;
  input: ExtractInput;
  resolve: (prepared: PreparedDocument) => void;
  reject: (error: Error) => void;
}

interface PoolWorker {
  worker: Worker;
  task: Task | undefined;
}

class WorkerExtractionPool implements ExtractionPool {
  private readonly workers = new Set<PoolWorker>();
  private readonly queue: Task[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly size: number,
    private readonly workerUrl: URL,
  ) {}

  async extract(input: ExtractInput): Promise<ExtractedDocument> {
    return (await this.prepare(input)).document;
  }

  prepare(input: ExtractInput): Promise<PreparedDocument> {
    if (this.closed) return Promise.reject(new Error("the extraction pool is closed"));
    return new Promise<PreparedDocument>((resolve, reject) => {
      this.queue.push({ id: this.nextId, input, resolve, reject });
      this.nextId += 1;
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const error = new Error("the extraction pool was closed");
    for (const task of this.queue.splice(0)) task.reject(error);
    const workers = [...this.workers];
    this.workers.clear();
    for (const slot of workers) slot.task?.reject(error);
    await Promise.all(workers.map((slot) => slot.worker.terminate()));
  }

  /** Hands queued tasks to idle workers, starting workers up to the pool size. */
  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = this.idleWorker() ?? (this.workers.size < this.size ? this.spawn() : undefined);
      if (slot === undefined) return;
      const task = this.queue.shift();
      if (task === undefined) return;
      slot.task = task;
      slot.worker.ref();
      const request: ExtractionRequest = { id: task.id, input: task.input };
      slot.worker.postMessage(request);
    }
  }

  private idleWorker(): PoolWorker | undefined {
    for (const slot of this.workers) if (slot.task === undefined) return slot;
    return undefined;
  }

  private spawn(): PoolWorker {
    const worker = new Worker(this.workerUrl);
    const slot: PoolWorker = { worker, task: undefined };
    this.workers.add(slot);
    worker.on("message", (message: unknown) => this.settle(slot, message));
    worker.on("error", (error: Error) => this.retire(slot, error));
    worker.on("exit", (code: number) => this.retire(slot, new Error(`extraction worker exited with code ${code}`)));
    return slot;
  }

  private settle(slot: PoolWorker, message: unknown): void {
    const task = slot.task;
    if (task === undefined || !isExtractionResponse(message) || message.id !== task.id) {
      this.retire(slot, new Error("extraction worker sent an unexpected message"));
      return;
    }
    slot.task = undefined;
    slot.worker.unref();
    if (message.ok) task.resolve({ document: message.document, chunks: message.chunks });
    else task.reject(new Error(message.message));
    this.dispatch();
  }

  /** Drops a worker that failed or exited: its task is rejected and queued work goes elsewhere. */
  private retire(slot: PoolWorker, error: Error): void {
    if (!this.workers.delete(slot)) return;
    slot.task?.reject(error);
    slot.task = undefined;
    slot.worker.terminate().catch(() => undefined);
    this.dispatch();
  }
}
