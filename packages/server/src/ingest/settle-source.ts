import type { Queryable } from "../db/database.js";
import type { JobQueue } from "../jobs/job-queue.js";
import { setSourceOutcome, type SourceOutcome } from "../sources/sources.js";
import { queueWebhookEvent } from "../webhooks/queue-webhook-event.js";
import { sourceSettledEvent } from "../webhooks/webhook-events.js";
import type { DocumentCounts } from "./document-repository.js";

/**
 * Ends a source's sync, in the caller's transaction: its outcome (and config patch, e.g. the page
 * counts) written, and its `source.indexed` / `source.failed` webhook event queued with it.
 */
export async function settleSource(
  tx: Queryable,
  jobs: JobQueue,
  sourceId: string,
  outcome: SourceOutcome,
  pages: DocumentCounts,
  configPatch: Record<string, unknown> = {},
): Promise<void> {
  const settled = await setSourceOutcome(tx, sourceId, outcome, configPatch);
  if (settled) await queueWebhookEvent(tx, jobs, sourceSettledEvent(settled, pages));
}
