import type { Logger } from "pino";
import type { SitemapProgress } from "./refresh-sitemap-progress.js";

export interface IngestProgressLogOptions {
  /** A progress line at least this often while pages are being indexed. */
  everyMs?: number;
  /** …and at every tenth of the sitemap's pages. */
  fractions?: number;
  now?: () => number;
}

interface Tracked {
  loggedAt: number;
  loggedProcessed: number;
  finishedAt: number | null;
}

/** How long a settled sitemap is remembered, so that pages finishing together log its end once. */
const FORGET_SETTLED_MS = 10 * 60_000;

/**
 * The `info` lines of indexing: a source starts, a sitemap's pages progress (every tenth of
 * them or every few seconds, whichever comes first — never a line per page), a source ends.
 * Each process logs what its own workers see.
 */
export class IngestProgressLog {
  private readonly sitemaps = new Map<string, Tracked>();
  private readonly everyMs: number;
  private readonly fractions: number;
  private readonly now: () => number;

  constructor(
    private readonly logger: Logger,
    options: IngestProgressLogOptions = {},
  ) {
    this.everyMs = options.everyMs ?? 5_000;
    this.fractions = options.fractions ?? 10;
    this.now = options.now ?? Date.now;
  }

  sourceStarted(source: { id: string; kind: string; targetUrl: string | null }): void {
    this.logger.info({ sourceId: source.id, kind: source.kind, url: source.targetUrl ?? undefined }, "source indexing started");
  }

  /** The sitemap was read: its pages are about to be queued, and its progress counts from here. */
  sitemapRead(sourceId: string, discovery: { pagesFound: number; truncated: boolean; skippedForeignHost: number }): void {
    this.forgetSettled();
    this.sitemaps.set(sourceId, { loggedAt: this.now(), loggedProcessed: 0, finishedAt: null });
    this.logger.info({ sourceId, ...discovery }, "sitemap read");
  }

  /** After each page: a line when due, and the end of the sitemap once. */
  sitemapProgress(sourceId: string, progress: SitemapProgress): void {
    if (progress.counts === null) return;
    const { found, indexed, failed, pending } = progress.counts;
    const processed = indexed + failed;
    let tracked = this.sitemaps.get(sourceId);
    if (!tracked || (tracked.finishedAt !== null && progress.state === "pending")) {
      tracked = { loggedAt: this.now(), loggedProcessed: 0, finishedAt: null };
      this.sitemaps.set(sourceId, tracked);
    }
    const pages = { sourceId, pagesFound: found, pagesIndexed: indexed, pagesFailed: failed };
    if (progress.state !== "pending") {
      if (tracked.finishedAt !== null) return;
      tracked.finishedAt = this.now();
      this.sourceFinished(progress.state, { ...pages, kind: "sitemap", ...(progress.state === "failed" ? { code: "all_pages_failed" } : {}) });
      return;
    }
    const step = Math.max(1, Math.ceil(found / this.fractions));
    const dueByCount = processed - tracked.loggedProcessed >= step;
    const dueByTime = processed > tracked.loggedProcessed && this.now() - tracked.loggedAt >= this.everyMs;
    if (!dueByCount && !dueByTime) return;
    tracked.loggedAt = this.now();
    tracked.loggedProcessed = processed;
    this.logger.info({ ...pages, pagesPending: pending, percent: Math.floor((processed / Math.max(1, found)) * 100) }, "sitemap progress");
  }

  sourceFinished(state: "indexed" | "failed", fields: Record<string, unknown>): void {
    this.logger.info(fields, state === "indexed" ? "source indexed" : "source failed");
  }

  private forgetSettled(): void {
    const before = this.now() - FORGET_SETTLED_MS;
    for (const [sourceId, tracked] of this.sitemaps) {
      if (tracked.finishedAt !== null && tracked.finishedAt < before) this.sitemaps.delete(sourceId);
    }
  }
}
