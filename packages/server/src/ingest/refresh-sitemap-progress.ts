import type { Database } from "../db/database.js";
import type { JobQueue } from "../jobs/job-queue.js";
import { patchSourceConfig } from "../sources/source-repository.js";
import { countSourceDocuments, type DocumentCounts } from "./document-repository.js";
import { settleSource } from "./settle-source.js";

/** A sitemap source's page counts after a refresh, and whether that refresh settled it. */
export interface SitemapProgress {
  counts: DocumentCounts;
  /** `pending` while a page is; else what the source became. */
  state: "pending" | "indexed" | "failed";
}

/**
 * Writes a sitemap source's page counts into its config and, once no page is pending, settles
 * the source (in a transaction with its webhook event): `indexed` when at least one page is, else
 * `failed`. Only settling opens a transaction (a page's progress is one statement).
 */
export async function refreshSitemapProgress(db: Database, jobs: JobQueue, sourceId: string): Promise<SitemapProgress> {
  const counts = await countSourceDocuments(db, sourceId);
  const progress = { pages_found: counts.found, pages_indexed: counts.indexed, pages_failed: counts.failed };
  if (counts.pending > 0) {
    await patchSourceConfig(db, sourceId, progress);
    return { counts, state: "pending" };
  }
  const failure = { code: "all_pages_failed", message: "No page of the sitemap could be indexed." };
  const outcome = counts.indexed > 0 ? ({ status: "indexed" } as const) : ({ status: "failed", error: failure } as const);
  await db.transaction((tx) => settleSource(tx, jobs, sourceId, outcome, counts, progress));
  return { counts, state: outcome.status };
}
