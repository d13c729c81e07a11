import { readdirSync } from "node:fs";
import { setPriority } from "node:os";

/**
 * The niceness of the process's threads other than the event loop's (Linux keeps one per thread).
 * Every request waits on the event loop; only some wait on one of the other threads (V8's
 * garbage-collection helpers; libuv's pool: file reads, DNS lookups, password hashing; the model
 * worker's token parsing). When they all want more CPU than there is, nice 10 (weight 110 against
 * 1024) gives the event loop about nine parts in ten, and what runs elsewhere runs a little slower.
 */
export const BACKGROUND_THREAD_NICENESS = 10;

/** Lowers the calling thread's priority to `BACKGROUND_THREAD_NICENESS` (a worker thread calls it for itself); false where not allowed. */
export function lowerOwnThreadPriority(): boolean {
  if (process.platform !== "linux") return false;
  try {
    setPriority(BACKGROUND_THREAD_NICENESS);
    return true;
  } catch {
    return false;
  }
}

/**
 * Lowers the priority of every thread the process has now except the event loop's (its thread id
 * is the process id): at `serve`'s start these are V8's platform threads, which run the concurrent
 * and parallel garbage collection of every isolate, and libuv's pool if it has started. In a burst
 * of 500 answer streams on two cores, the event loop waited for a CPU about a thousand times a
 * second, and V8's four helper threads held 29 % of the CPU during its longest waits
 * (docs/benchmarks.md). Returns how many threads were lowered; none outside Linux.
 */
export function lowerOtherThreadsPriority(): number {
  if (process.platform !== "linux") return 0;
  let threadIds: number[];
  try {
    threadIds = readdirSync("/proc/self/task").map(Number);
  } catch {
    return 0;
  }
  let lowered = 0;
  for (const threadId of threadIds) {
    if (threadId === process.pid) continue;
    try {
      setPriority(threadId, BACKGROUND_THREAD_NICENESS);
      lowered += 1;
    } catch {
      // The thread has ended, or this is not allowed here: it keeps the process's priority.
    }
  }
  return lowered;
}
