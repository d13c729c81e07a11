import type { JobOutcome } from "../observability/ingest-metrics.js";
import type { JobName } from "./job-catalog.js";
import type { JobHandler } from "./job-queue.js";

/** Something told when a job attempt starts and how it ended. */
export interface JobObserver {
  jobStarted(name: string): (outcome: JobOutcome) => void;
}

/** Wraps a handler so every attempt is reported: completed, retried (it threw and will run again) or failed (its last attempt threw). */
export function measuredJobHandler<Name extends JobName>(observer: JobObserver, name: Name, handler: JobHandler<Name>): JobHandler<Name> {
  return async (payload, attempt) => {
    const finished = observer.jobStarted(name);
    try {
      await handler(payload, attempt);
      finished("completed");
    } catch (error) {
      finished(attempt.isLastAttempt ? "failed" : "retried");
      throw error;
    }
  };
}
