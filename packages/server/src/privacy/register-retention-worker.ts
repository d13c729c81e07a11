import type { Logger } from "pino";
import type { Services } from "../services.js";
import { servicesDeletionAnnouncer } from "./announce-deleted-conversations.js";
import { purgeStaleConversations } from "./purge-stale-conversations.js";
import { purgeExpiredIdempotencyKeys } from "../answering/idempotency-keys.js";
import { purgeExpiredReplyKeys } from "../conversations/operator-reply-keys.js";

/** Every hour at minute 17 (UTC): off the round hour other schedules crowd. */
export const RETENTION_CRON = "17 * * * *";

/**
 * The retention job's worker, and its hourly schedule (stored by pg-boss: one schedule however many
 * processes register it). A run with no period set anywhere reads the workspaces with an override
 * (a partial index) and ends. It also deletes the messages' and operators' replies' idempotency keys
 * past their 24 hours.
 */
export async function registerRetentionWorker(services: Services, logger: Logger): Promise<void> {
  const announce = servicesDeletionAnnouncer(services);
  await services.jobs.work("purge-retention", 1, async () => {
    const result = await purgeStaleConversations({ db: services.db, announce }, { ...services.config.retention, now: services.now() });
    if (result.counts.conversations > 0) logger.info({ workspaces: result.workspaces, ...result.counts }, "retention: stale conversations purged");
    // Idempotency keys are kept 24 hours (answering/idempotency-key-repository.ts, conversations/operator-reply-key-repository.ts).
    const keys = (await purgeExpiredIdempotencyKeys(services.db)) + (await purgeExpiredReplyKeys(services.db));
    if (keys > 0) logger.info({ keys }, "retention: expired idempotency keys purged");
  });
  await services.jobs.schedule("purge-retention", RETENTION_CRON);
}
