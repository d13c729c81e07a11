import type { Queryable } from "../db/database.js";
import type { FrontdeskEvents } from "../events/frontdesk-events.js";
import { lockSource, patchSourceConfig, type SourceOutcome } from "../sources/sources.js";
import { countSourceDocuments, type DocumentCounts } from "./document-repository.js";
import { settleSource } from "./settle-source.js";

/** A source's document counts after a refresh, and whether the refresh settled it. */
export interface SourceProgress {
  counts: DocumentCounts;
  /** `pending` while a document is; else what the source became. */
  state: "pending" | SourceOutcome["status"];
}

/**
 * In the caller's transaction, under the source's row lock (so two jobs ending together cannot
 * write counts taken before the other committed over newer ones): counts the source's documents,
 * writes them into its config while one is pending, and otherwise settles it with
 * `outcomeWhenDone(counts)` and its webhook event. Sitemaps and WordPress sites differ only in that
 * outcome.
 */
export async function refreshSourceProgress(
  tx: Queryable,
  events: FrontdeskEvents,
  sourceId: string,
  outcomeWhenDone: (counts: DocumentCounts) => SourceOutcome,
): Promise<SourceProgress> {
  await lockSource(tx, sourceId);
  const counts = await countSourceDocuments(tx, sourceId);
  const progress = { pages_found: counts.found, pages_indexed: counts.indexed, pages_failed: counts.failed };
  if (counts.pending > 0) {
    await patchSourceConfig(tx, sourceId, progress);
    return { counts, state: "pending" };
  }
  const outcome = outcomeWhenDone(counts);
  await settleSource(tx, events, sourceId, outcome, counts, progress);
  return { counts, state: outcome.status };
}
