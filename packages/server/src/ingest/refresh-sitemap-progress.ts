import type { Queryable } from "../db/database.js";
import { patchSourceConfig, setSourceOutcome } from "../sources/source-repository.js";
import { countSourceDocuments, type DocumentCounts } from "./document-repository.js";

/** A sitemap source's page counts after a refresh, and whether that refresh settled it. */
export interface SitemapProgress {
  counts: DocumentCounts;
  /** `pending` while a page is; else what the source became. */
  state: "pending" | "indexed" | "failed";
}

/**
 * Writes a sitemap source's page counts into its config and, once no page is pending, settles
 * the source: `indexed` when at least one page is, else `failed`.
 */
export async function refreshSitemapProgress(db: Queryable, sourceId: string): Promise<SitemapProgress> {
  const counts = await countSourceDocuments(db, sourceId);
  const progress = { pages_found: counts.found, pages_indexed: counts.indexed, pages_failed: counts.failed };
  if (counts.pending > 0) {
    await patchSourceConfig(db, sourceId, progress);
    return { counts, state: "pending" };
  }
  if (counts.indexed > 0) {
    await setSourceOutcome(db, sourceId, { status: "indexed" }, progress);
    return { counts, state: "indexed" };
  }
  await setSourceOutcome(db, sourceId, { status: "failed", error: { code: "all_pages_failed", message: "No page of the sitemap could be indexed." } }, progress);
  return { counts, state: "failed" };
}
