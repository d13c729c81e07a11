import type { Database } from "../db/database.js";
import type { JobQueue } from "../jobs/job-queue.js";
import { advanceSchedules, lockDueSources } from "./source-schedule-repository.js";
import { nextSyncAt } from "./source-schedule.js";

/** At most this many sources are claimed per tick (one a minute): a backlog drains over the following ticks. */
export const RESYNCS_PER_TICK = 200;

/** Every minute (UTC); the due sources themselves are spread by their jitter. */
export const RESYNC_TICK_CRON = "* * * * *";

export interface ResyncTickResult {
  /** Sources whose re-sync was enqueued. */
  enqueued: string[];
  /** Due sources still syncing (a long sitemap): their occurrence is skipped, their next one scheduled. */
  skipped: string[];
}

/**
 * Job `schedule-resyncs`, the scheduler's tick: claims the due sources (row locks, SKIP LOCKED), moves
 * each one's next_sync_at on by its interval and jitter, and enqueues an `index-source` job for each
 * that is not still syncing, all in one transaction. Two ticks running at once claim disjoint sets,
 * and a source is re-synced at most once at a time.
 */
export async function enqueueDueResyncs(
  services: { db: Database; jobs: JobQueue },
  options: { now: Date; limit?: number },
): Promise<ResyncTickResult> {
  return services.db.transaction(async (tx) => {
    const due = await lockDueSources(tx, options.now, options.limit ?? RESYNCS_PER_TICK);
    await advanceSchedules(
      tx,
      due.map((source) => ({ id: source.id, nextSyncAt: nextSyncAt(source.id, source.schedule, options.now)!, resync: !source.syncing })),
    );
    const enqueued = due.filter((source) => !source.syncing).map((source) => source.id);
    await services.jobs.sendMany("index-source", enqueued.map((sourceId) => ({ sourceId })), tx);
    return { enqueued, skipped: due.filter((source) => source.syncing).map((source) => source.id) };
  });
}
