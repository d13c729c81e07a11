import type { Database } from "../db/database.js";
import type { JobQueue } from "../jobs/job-queue.js";
import { patchSourceConfig } from "../sources/source-repository.js";
import { countSourceDocuments, hasPendingDocuments, type DocumentCounts } from "./document-repository.js";
import { settleSource } from "./settle-source.js";

/** A sitemap source's page counts after a refresh (null: not counted this time), and whether that refresh settled it. */
export interface SitemapProgress {
  counts: DocumentCounts | null;
  /** `pending` while a page is; else what the source became. */
  state: "pending" | "indexed" | "failed";
}

/** How often a sitemap's page counts are written while some of its pages are pending. */
export const SITEMAP_COUNTS_EVERY_MS = 250;

/**
 * When each sitemap's pages were last counted by this process. A page that ends sooner than
 * `SITEMAP_COUNTS_EVERY_MS` after the last count only asks whether a page is still pending.
 */
export class SitemapCountsThrottle {
  readonly #countedAt = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Whether this sitemap's pages are to be counted now; if so, the time is taken as its last count. */
  due(sourceId: string): boolean {
    const now = this.now();
    const last = this.#countedAt.get(sourceId);
    if (last !== undefined && now - last < SITEMAP_COUNTS_EVERY_MS) return false;
    this.#countedAt.set(sourceId, now);
    return true;
  }

  /** The sitemap settled: nothing to remember. */
  forget(sourceId: string): void {
    this.#countedAt.delete(sourceId);
  }
}

/**
 * Writes a sitemap source's page counts into its config and, once no page is pending, settles
 * the source (in a transaction with its webhook event): `indexed` when at least one page is, else
 * `failed`. Only settling opens a transaction (a page's progress is one statement). With a
 * `throttle`, the counts are taken and written at most every `SITEMAP_COUNTS_EVERY_MS` while pages
 * are pending; in between, one indexed lookup says whether any is (the last page always settles).
 */
export async function refreshSitemapProgress(db: Database, jobs: JobQueue, sourceId: string, throttle?: SitemapCountsThrottle): Promise<SitemapProgress> {
  if (throttle && !throttle.due(sourceId) && (await hasPendingDocuments(db, sourceId))) return { counts: null, state: "pending" };
  const counts = await countSourceDocuments(db, sourceId);
  const progress = { pages_found: counts.found, pages_indexed: counts.indexed, pages_failed: counts.failed };
  if (counts.pending > 0) {
    await patchSourceConfig(db, sourceId, progress);
    return { counts, state: "pending" };
  }
  const failure = { code: "all_pages_failed", message: "No page of the sitemap could be indexed." };
  const outcome = counts.indexed > 0 ? ({ status: "indexed" } as const) : ({ status: "failed", error: failure } as const);
  await db.transaction((tx) => settleSource(tx, jobs, sourceId, outcome, counts, progress));
  throttle?.forget(sourceId);
  return { counts, state: outcome.status };
}
