/**
 * Why a task given to a thread pool did not produce a result:
 * - `closed`: the pool was closed before or while the task ran;
 * - `aborted`: the caller's AbortSignal fired (a running task's thread is terminated);
 * - `queue_full`: every thread is busy and the queue holds its maximum;
 * - `thread_stopped`: the thread running the task exited or was terminated (a crash);
 * - `thread_failed_to_start`: the worker script could not be loaded, and no thread is left to run the task;
 * - `task_failed`: the task itself threw; the message is the task's own.
 */
export type ThreadPoolFailure = "closed" | "aborted" | "queue_full" | "thread_stopped" | "thread_failed_to_start" | "task_failed";

export class ThreadPoolError extends Error {
  constructor(
    readonly failure: ThreadPoolFailure,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, "cause" in options ? { cause: options.cause } : undefined);
    this.name = "ThreadPoolError";
  }
}
