import { fileURLToPath } from "node:url";
import { Piscina } from "piscina";
import { ThreadPoolError } from "./thread-pool-error.js";

export interface ThreadPoolOptions {
  /** The compiled worker module; its default export handles one task (it may be async). */
  workerUrl: URL;
  /** Passed to every thread as `workerData`; must be structured-cloneable. */
  workerData?: unknown;
  /** Names the pool in error messages, e.g. "extraction worker" or "hashing embedder". */
  description: string;
  /** The most threads running at once. */
  maxThreads: number;
  /** Threads kept alive while idle. Default 0: an idle service holds no worker thread. */
  minThreads?: number;
  /** How long a thread beyond `minThreads` may sit idle before it exits. Default 30 s. */
  idleTimeoutMs?: number;
  /** Tasks that may wait for a thread; one more is refused with `queue_full`. Default 1,000. */
  maxQueue?: number;
  /** How long `close()` lets running tasks finish before their threads are terminated. Default 5 s. */
  closeTimeoutMs?: number;
  /** Each thread's heap limits: past them the thread is stopped and its task fails. */
  resourceLimits?: { maxOldGenerationSizeMb?: number; maxYoungGenerationSizeMb?: number };
}

export interface RunOptions {
  /** Aborting removes a queued task, or terminates the thread running it (a new one starts on demand). */
  signal?: AbortSignal;
}

export const DEFAULT_IDLE_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_QUEUE = 1_000;
// Messages of piscina's own errors (see piscina/dist/errors.js and its worker exit handler).
const THREAD_TERMINATED_MESSAGE = "Terminating worker thread";
const THREAD_EXITED = /^worker exited with code: (-?\d+)$/;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === "AbortError";
}

/**
 * Worker threads, on piscina, that start when work arrives and exit after sitting idle. A thread
 * that crashes fails its task and is replaced by the next task; a worker script that cannot even
 * start fails the waiting tasks instead of leaving them queued forever. Every failure is a
 * ThreadPoolError saying which kind it is. Idle threads never keep the process alive.
 */
export class ThreadPool<Task, Result> {
  private readonly piscina: Piscina<Task, Result>;
  /** One controller per task not yet settled, to fail waiting tasks when no thread can start. */
  private readonly pending = new Set<AbortController>();
  private readonly description: string;
  private readonly maxThreads: number;
  private readonly maxQueue: number;
  private closed = false;

  constructor(options: ThreadPoolOptions) {
    if (!Number.isInteger(options.maxThreads) || options.maxThreads < 1) {
      throw new RangeError(`${options.description} threads must be a positive integer, got ${options.maxThreads}`);
    }
    this.description = options.description;
    this.maxThreads = options.maxThreads;
    this.maxQueue = options.maxQueue ?? DEFAULT_MAX_QUEUE;
    this.piscina = new Piscina<Task, Result>({
      filename: fileURLToPath(options.workerUrl),
      workerData: options.workerData,
      maxThreads: options.maxThreads,
      minThreads: Math.min(options.minThreads ?? 0, options.maxThreads),
      idleTimeout: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
      closeTimeout: options.closeTimeoutMs ?? 5_000,
      ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}),
      recordTiming: false,
      // Between tasks a thread waits on its event loop, not blocked in Atomics.wait: what a task
      // left running (ONNX Runtime's callbacks) can finish. Tasks last milliseconds, so the
      // microseconds Atomics would save do not show (bench/embedding-pool.mjs).
      atomics: "disabled",
    });
    // Piscina reports here what belongs to no task: a thread that failed to start, a close that
    // timed out. Without a listener the EventEmitter would throw it at the process.
    this.piscina.on("error", (error: unknown) => this.onPoolError(error));
  }

  /** Worker threads alive now (starting, busy or idle). */
  get threadCount(): number {
    return this.piscina.threads.length;
  }

  /** Tasks waiting for a thread. */
  get queueSize(): number {
    return this.piscina.queueSize;
  }

  async run(task: Task, options: RunOptions = {}): Promise<Result> {
    if (this.closed) throw this.closedError();
    // Piscina's own maxQueue does not count tasks that carry an AbortSignal (it parks them in a
    // separate queue), and every task here carries one: the bound is kept here instead. At most
    // one task runs per thread, so beyond maxThreads + maxQueue unsettled tasks, maxQueue wait.
    if (this.pending.size >= this.maxThreads + this.maxQueue) {
      throw new ThreadPoolError("queue_full", `The ${this.description} pool is busy: ${this.maxQueue} tasks are already waiting`);
    }
    const own = new AbortController();
    const signal = options.signal === undefined ? own.signal : AbortSignal.any([options.signal, own.signal]);
    this.pending.add(own);
    try {
      return await this.piscina.run(task, { signal });
    } catch (error) {
      throw this.explain(error, own.signal, options.signal);
    } finally {
      this.pending.delete(own);
    }
  }

  /** Refuses new tasks, fails the waiting ones, lets running ones finish (up to the close timeout). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.piscina.close({ force: true });
  }

  private closedError(): ThreadPoolError {
    return new ThreadPoolError("closed", `The ${this.description} pool was closed`);
  }

  private onPoolError(error: unknown): void {
    // Only a start failure that leaves no thread at all strands the queue: fail what waits.
    if (this.closed || this.piscina.threads.length > 0) return;
    const failure = new ThreadPoolError("thread_failed_to_start", `The ${this.description} thread could not start: ${messageOf(error)}`, {
      cause: error,
    });
    for (const controller of this.pending) controller.abort(failure);
  }

  private explain(error: unknown, own: AbortSignal, callerSignal: AbortSignal | undefined): ThreadPoolError {
    if (own.aborted && own.reason instanceof ThreadPoolError) return own.reason;
    if (callerSignal?.aborted) {
      return new ThreadPoolError("aborted", `The ${this.description} task was aborted`, { cause: callerSignal.reason });
    }
    const message = messageOf(error);
    if (this.closed && (isAbortError(error) || message === THREAD_TERMINATED_MESSAGE)) return this.closedError();
    const exited = THREAD_EXITED.exec(message);
    if (exited !== null) {
      return new ThreadPoolError("thread_stopped", `The ${this.description} thread exited with code ${exited[1]}`, { cause: error });
    }
    if (message === THREAD_TERMINATED_MESSAGE) {
      return new ThreadPoolError("thread_stopped", `The ${this.description} thread was terminated`, { cause: error });
    }
    return new ThreadPoolError("task_failed", message, { cause: error });
  }
}
