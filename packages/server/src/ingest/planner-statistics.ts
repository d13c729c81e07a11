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

  constructor(
    private readonly db: Database,
    private readonly onError: (error: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {}

  knowledgeChanged(): void {
    this.pending = true;
    if (this.running) return;
    const wait = Math.max(0, this.lastRun + MIN_INTERVAL_MS - this.now());
    this.running = new Promise<void>((resolve) => setTimeout(resolve, wait).unref())
      .then(async () => {
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

  /** Waits for a scheduled run (shutdown, tests). */
  async settle(): Promise<void> {
    await this.running;
  }
}
