import type { Database } from "../db/database.js";
import { listAgentsWithOwnVectorIndex } from "../tenants/agents.js";
import { indexAgentVectors, listAgentsWithVectorsToIndex, type VectorIndexing, type VectorIndexOptions } from "./index-agent-vectors.js";
import { ownVectorIndexIsValid } from "./own-vector-index.js";

const MIN_INTERVAL_MS = 30_000;

/**
 * Moves agents' vectors into an HNSW index (indexAgentVectors) after their knowledge changed, at
 * most every 30 seconds per process, in the background of the jobs that changed it: a bulk load
 * (a sitemap) inserts its chunks without the index's cost; the agent's chunks then enter the
 * shared index in batches, or a large agent's own index is built once, in bulk.
 */
export class VectorIndexUpkeep {
  private readonly pending = new Set<string>();
  private lastRun = 0;
  private running: Promise<void> | null = null;
  private closed = false;
  private timer: NodeJS.Timeout | null = null;
  private readonly stopping = new AbortController();

  constructor(
    private readonly db: Database,
    private readonly options: VectorIndexOptions,
    private readonly onError: (error: unknown) => void,
    private readonly onIndexed: (agentId: string, indexing: VectorIndexing) => void = () => {},
    private readonly now: () => number = Date.now,
    private readonly intervalMs: number = MIN_INTERVAL_MS,
  ) {}

  knowledgeChanged(agentId: string): void {
    this.pending.add(agentId);
    if (this.running || this.closed) return;
    const wait = Math.max(0, this.lastRun + this.intervalMs - this.now());
    this.running = new Promise<void>((resolve) => {
      this.timer = setTimeout(resolve, wait);
      this.timer.unref();
    })
      .then(async () => {
        this.timer = null;
        this.lastRun = this.now();
        for (const agentId of [...this.pending]) {
          if (this.closed) return;
          this.pending.delete(agentId);
          const indexing = await indexAgentVectors(this.db, agentId, this.options, this.stopping.signal);
          if (indexing.promoted || indexing.flagged > 0 || indexing.own === "built") this.onIndexed(agentId, indexing);
        }
      })
      .catch(this.onError)
      .finally(() => {
        this.running = null;
        if (this.pending.size > 0 && !this.closed) this.knowledgeChanged([...this.pending][0]!);
      });
  }

  /**
   * Schedules the promoted agents whose chunks are not all in the shared index yet, and the agents
   * whose own index a stopped process left unbuilt (when the workers start).
   */
  async resume(): Promise<void> {
    try {
      for (const agentId of await listAgentsWithVectorsToIndex(this.db)) this.knowledgeChanged(agentId);
      if (this.options.own && this.db.kind === "postgres") {
        for (const { agentId, name } of await listAgentsWithOwnVectorIndex(this.db)) {
          if (!(await ownVectorIndexIsValid(this.db, name))) this.knowledgeChanged(agentId);
        }
      }
    } catch (error) {
      this.onError(error);
    }
  }

  /** Resolves once no run is scheduled or under way (tests). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Cancels a scheduled run and waits for one under way to end its current batch (shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    this.stopping.abort();
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
      this.running = null;
      return;
    }
    await this.running;
  }
}
