import type { Database } from "../db/database.js";

const MIN_INTERVAL_MS = 30_000;

/**
 * Keeps the query planner's statistics of the knowledge tables current: without them (PGlite
 * has no autovacuum, and some Postgres deployments turn it off) the planner does not use the
 * full-text index and retrieval scans every chunk. Runs `ANALYZE` after the knowledge changes,
 * at most every 30 seconds per process, in the background of the job that changed it.
 */
export class PlannerStatistics {
  private lastRun = 0;
  private running: Promise<void> | null = null;
  private pending = false;
  private closed = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Database,
    private readonly onError: (error: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {}

  knowledgeChanged(): void {
    this.pending = true;
    if (this.running || this.closed) return;
    const wait = Math.max(0, this.lastRun + MIN_INTERVAL_MS - this.now());
    this.running = new Promise<void>((resolve) => {
      this.timer = setTimeout(resolve, wait);
      this.timer.unref();
    })
      .then(async () => {
        this.timer = null;
        if (this.closed) return;
        this.pending = false;
        this.lastRun = this.now();
        await this.db.query("ANALYZE chunks");
        await this.db.query("ANALYZE documents");
      })
      .catch(this.onError)
      .finally(() => {
        this.running = null;
        if (this.pending) this.knowledgeChanged();
      });
  }

  /** Cancels a scheduled run and waits for one under way (shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
      this.running = null;
      return;
    }
    await this.running;
  }
}
