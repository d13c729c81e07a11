import type { Logger } from "pino";
import type { Services } from "../services.js";
import { enqueueDueResyncs, RESYNC_TICK_CRON } from "./enqueue-due-resyncs.js";

/**
 * The re-sync scheduler: the `schedule-resyncs` worker and its every-minute schedule (stored by
 * pg-boss: one schedule however many processes register it, fired by one of them).
 */
export async function registerResyncScheduler(services: Pick<Services, "db" | "jobs" | "now">, logger: Logger): Promise<void> {
  await services.jobs.work("schedule-resyncs", 1, async () => {
    const result = await enqueueDueResyncs(services, { now: services.now() });
    if (result.enqueued.length > 0 || result.skipped.length > 0) {
      logger.info({ enqueued: result.enqueued.length, skippedStillSyncing: result.skipped.length }, "scheduled re-syncs enqueued");
    }
  });
  await services.jobs.schedule("schedule-resyncs", RESYNC_TICK_CRON);
}
