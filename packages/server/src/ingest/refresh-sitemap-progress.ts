import type { Queryable } from "../db/database.js";
import { patchSourceConfig, setSourceOutcome } from "../sources/source-repository.js";
import { countSourceDocuments } from "./document-repository.js";

/**
 * Writes a sitemap source's page counts into its config and, once no page is pending, settles
 * the source: `indexed` when at least one page is, else `failed`.
 */
export async function refreshSitemapProgress(db: Queryable, sourceId: string): Promise<void> {
  const counts = await countSourceDocuments(db, sourceId);
  const progress = { pages_found: counts.found, pages_indexed: counts.indexed, pages_failed: counts.failed };
  if (counts.pending > 0) {
    await patchSourceConfig(db, sourceId, progress);
    return;
  }
  if (counts.indexed > 0) {
    await setSourceOutcome(db, sourceId, { status: "indexed" }, progress);
  } else {
    await setSourceOutcome(db, sourceId, { status: "failed", error: { code: "all_pages_failed", message: "No page of the sitemap could be indexed." } }, progress);
  }
}
