import type { Database } from "../db/database.js";
import type { FrontdeskEvents } from "../events/frontdesk-events.js";
import type { SourceOutcome } from "../sources/sources.js";
import { hasPendingDocuments, type DocumentCounts } from "./document-repository.js";
import { refreshSourceProgress, type SourceProgress } from "./refresh-source-progress.js";

/** A sitemap source's page counts after a refresh (null: not counted this time), and whether that refresh settled it. */
export interface SitemapProgress {
  counts: DocumentCounts | null;
  state: SourceProgress["state"];
}

/** A sitemap's page counts are written while some of its pages are pending at least this often… */
export const SITEMAP_COUNTS_EVERY_MS = 250;
/**
 * …or, for a large sitemap, every this many milliseconds per page it has (5 s for 100,000 pages):
 * counting reads every document of the sitemap, so a count every 250 ms made the time each page
 * costs grow with the sitemap.
 */
export const SITEMAP_COUNTS_MS_PER_PAGE = 0.05;
/** …and at least this many times over the sitemap (every twentieth of its pages ended here), so its progress log keeps its tenths. */
export const SITEMAP_COUNTS_PER_SITEMAP = 20;

/** A sitemap not counted by this process for this long is forgotten (its next page counts afresh). */
const SITEMAP_FORGOTTEN_AFTER_MS = 60_000;

interface Counted {
  at: number;
  /** Pages of the sitemap ended in this process since that count. */
  endedSince: number;
  /** How many ended pages make the next count due. */
  every: number;
  /** How long after the last count the next one is due. */
  everyMs: number;
}

/**
 * When each sitemap's pages were last counted by this process. A page that ends less than
 * `SITEMAP_COUNTS_EVERY_MS` after the last count (`SITEMAP_COUNTS_MS_PER_PAGE` per page of a large
 * sitemap), and before a twentieth of the sitemap's pages ended since, only asks whether a page is
 * still pending: counting all of a sitemap's documents after every page made its indexing
 * quadratic in its size.
 */
export class SitemapCountsThrottle {
  readonly #counted = new Map<string, Counted>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A page of the sitemap ended: whether to count its pages now (if so, this is taken as its last count). */
  due(sourceId: string): boolean {
    const now = this.now();
    const last = this.#counted.get(sourceId);
    if (last) {
      last.endedSince += 1;
      if (now - last.at < last.everyMs && last.endedSince < last.every) return false;
      this.#counted.delete(sourceId);
    }
    this.forgetStale(now);
    // Last counted last: the map stays in the order of the counts, oldest first.
    this.#counted.set(sourceId, { at: now, endedSince: 0, every: last?.every ?? 1, everyMs: last?.everyMs ?? SITEMAP_COUNTS_EVERY_MS });
    return true;
  }

  /** Sitemaps this process remembers (tests). */
  get size(): number {
    return this.#counted.size;
  }

  /** The sitemap was counted with `found` pages: the next count is due after a twentieth of them, or after a time that grows with them. */
  counted(sourceId: string, found: number): void {
    const last = this.#counted.get(sourceId);
    if (!last) return;
    last.every = Math.max(1, Math.ceil(found / SITEMAP_COUNTS_PER_SITEMAP));
    last.everyMs = Math.max(SITEMAP_COUNTS_EVERY_MS, found * SITEMAP_COUNTS_MS_PER_PAGE);
  }

  /** The sitemap settled: nothing to remember. */
  forget(sourceId: string): void {
    this.#counted.delete(sourceId);
  }

  /** Sitemaps not counted for a minute: settled by another process (Postgres), or given up. */
  private forgetStale(now: number): void {
    for (const [sourceId, counted] of this.#counted) {
      if (now - counted.at < SITEMAP_FORGOTTEN_AFTER_MS) return;
      this.#counted.delete(sourceId);
    }
  }
}

/** A settled sitemap is `indexed` when at least one page is, else `failed`. */
const sitemapOutcome = (counts: DocumentCounts): SourceOutcome =>
  counts.indexed > 0 ? { status: "indexed" } : { status: "failed", error: { code: "all_pages_failed", message: "No page of the sitemap could be indexed." } };

/**
 * Writes a sitemap source's page counts into its config and, once no page is pending, settles
 * the source (with its webhook event): `indexed` when at least one page is, else `failed`. The
 * counts are taken and written in one transaction under the source's row lock, so two page jobs
 * ending together cannot write older counts over newer ones. With a `throttle`, the counts are
 * taken only when it says so while pages are pending; in between, one indexed lookup says whether
 * any is (the last page always counts and settles).
 */
export async function refreshSitemapProgress(db: Database, events: FrontdeskEvents, sourceId: string, throttle?: SitemapCountsThrottle): Promise<SitemapProgress> {
  if (throttle && !throttle.due(sourceId) && (await hasPendingDocuments(db, sourceId))) return { counts: null, state: "pending" };
  const refreshed = await db.transaction((tx) => refreshSourceProgress(tx, events, sourceId, sitemapOutcome));
  if (refreshed.state === "pending") throttle?.counted(sourceId, refreshed.counts.found);
  else throttle?.forget(sourceId);
  return refreshed;
}
