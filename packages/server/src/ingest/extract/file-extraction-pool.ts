import { ThreadPool } from "../../threads/thread-pool.js";
import { ThreadPoolError } from "../../threads/thread-pool-error.js";
import { IngestFailure } from "../ingest-failure.js";
import type { FileExtractInput, PreparedFile } from "./file-extract-input.js";

export interface FileExtractionPoolOptions {
  /** The most files extracted at once. */
  size: number;
  /** The compiled `file-extract-worker.js` (tests point at the one in dist). */
  workerUrl?: URL;
  /** A file taking longer than this has its thread terminated. Default 120 s. */
  timeoutMs?: number;
  /** The heap a thread may grow to, in MB, before it is stopped. Default 512. */
  maxHeapMb?: number;
}

export interface FileExtractionPool {
  /** Extracts and chunks one file; an unreadable or hostile file rejects with `extraction_failed` and its reason. */
  prepare(input: FileExtractInput): Promise<PreparedFile>;
  close(): Promise<void>;
}

/**
 * The young generation of a file thread. pdf.js makes short-lived objects for every text item of
 * every page; with 64 MB the thread held far more of them between scavenges than it needed: a
 * 1,900-page PDF peaked 107 MiB higher than with 16 MB, and read no faster (bench/ingest-file-memory.mjs).
 */
const YOUNG_GENERATION_MB = 16;

const failed = (reason: string) => new IngestFailure("extraction_failed", reason);

/**
 * Files are read on threads of their own, apart from the page extraction pool, each under a heap
 * limit (resourceLimits) and a time limit (the thread is terminated): a zip bomb, a PDF built to
 * exhaust the parser or one that never ends costs that thread, and the file's source fails with
 * the reason, while the service answers on.
 */
export function createFileExtractionPool(options: FileExtractionPoolOptions): FileExtractionPool {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const maxHeapMb = options.maxHeapMb ?? 512;
  const pool = new ThreadPool<FileExtractInput, PreparedFile>({
    workerUrl: options.workerUrl ?? new URL("./file-extract-worker.js", import.meta.url),
    description: "file extraction worker",
    maxThreads: options.size,
    idleTimeoutMs: 10_000,
    maxQueue: 100,
    resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
  });
  return {
    async prepare(input) {
      try {
        return await pool.run(input, { signal: AbortSignal.timeout(timeoutMs) });
      } catch (error) {
        if (!(error instanceof ThreadPoolError)) throw error;
        switch (error.failure) {
          case "task_failed":
            if (/memory/i.test(error.message)) throw failed(`reading the file needed more than ${maxHeapMb} MB of memory`);
            throw failed(error.message);
          case "aborted":
            throw failed(`reading the file took longer than ${timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`}`);
          case "thread_stopped":
            throw failed(`reading the file stopped its worker (over ${maxHeapMb} MB of memory?)`);
          default:
            // The pool closing or full: a retry later may succeed.
            throw new IngestFailure("extraction_unavailable", error.message, true);
        }
      }
    },
    close: () => pool.close(),
  };
}
