import type { JobOutcome } from "../observability/ingest-metrics.js";
import type { JobName } from "./job-catalog.js";
import type { JobHandler, JobQueue } from "./job-queue.js";

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

/** The queue whose workers report every attempt to `observer` (the jobs that are not ingestion's: webhooks, retention, re-sync ticks). */
export function observedJobQueue(jobs: JobQueue, observer: JobObserver): JobQueue {
  return {
    send: (name, payload, tx, options) => jobs.send(name, payload, tx, options),
    sendMany: (name, payloads, tx) => jobs.sendMany(name, payloads, tx),
    schedule: (name, cron) => jobs.schedule(name, cron),
    work: (name, concurrency, handler) => jobs.work(name, concurrency, measuredJobHandler(observer, name, handler)),
    stop: () => jobs.stop(),
  };
}
