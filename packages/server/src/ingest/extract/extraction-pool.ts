import { ThreadPool } from "../../threads/thread-pool.js";
import type { DocumentChunk } from "../chunk/document-chunk.js";
import type { ExtractedDocument, ExtractInput } from "./extracted-document.js";

export interface ExtractionPoolOptions {
  /** The most worker threads running at once; they start on demand. */
  size: number;
  /**
   * The worker entry point. Defaults to the compiled `extract-worker.js` next to this file; tests
   * that run from TypeScript sources point it at the built file in `dist`.
   */
  workerUrl?: URL;
  /** How long an idle thread lives before it exits. Default 30 s. */
  idleTimeoutMs?: number;
  /** Pages that may wait for a thread before more are refused. Default 1,000. */
  maxQueue?: number;
}

/** A page extracted and cut into chunks. */
export interface PreparedDocument {
  document: ExtractedDocument;
  chunks: DocumentChunk[];
}

/** Runs `extractDocument` on worker threads so that parsing never blocks the event loop. */
export interface ExtractionPool {
  /** Extracts one page; rejects (ThreadPoolError) when extraction throws, the worker dies, or the pool closes. */
  extract(input: ExtractInput, options?: { signal?: AbortSignal }): Promise<ExtractedDocument>;
  /** Extracts one page and chunks it, both on a worker thread. */
  prepare(input: ExtractInput, options?: { signal?: AbortSignal }): Promise<PreparedDocument>;
  /** Rejects queued extractions, lets running ones finish briefly, and stops every worker. */
  close(): Promise<void>;
}

/** Creates a pool of at most `size` extraction threads, started when work arrives and ended when idle. */
export function createExtractionPool(options: ExtractionPoolOptions): ExtractionPool {
  if (!Number.isInteger(options.size) || options.size < 1) {
    throw new RangeError(`extraction pool size must be a positive integer, got ${options.size}`);
  }
  const pool = new ThreadPool<ExtractInput, PreparedDocument>({
    workerUrl: options.workerUrl ?? new URL("./extract-worker.js", import.meta.url),
    description: "extraction worker",
    maxThreads: options.size,
    idleTimeoutMs: options.idleTimeoutMs,
    maxQueue: options.maxQueue,
  });
  return {
    async extract(input, runOptions) {
      return (await pool.run(input, runOptions)).document;
    },
    prepare: (input, runOptions) => pool.run(input, runOptions),
    close: () => pool.close(),
  };
}
