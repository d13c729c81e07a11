import type { Database } from "../../db/database.js";
import { readIndexedChunks, readKnowledgeHead } from "./chunk-search-repository.js";
import { LexicalIndex, LexicalIndexBuilder } from "./lexical-index.js";

/** Chunks read per query while an index is built: each batch is one short query, so questions interleave. */
const BUILD_BATCH = 1000;
/** After a build, the next one for the same agent waits at least this long… */
const MIN_REBUILD_INTERVAL_MS = 1000;
/** …and at least this many times the last build's duration, so constant re-indexing costs a bounded share of the CPU. */
const REBUILD_DUTY_FACTOR = 4;
/** After a failed build. */
const FAILURE_BACKOFF_MS = 30_000;

interface Entry {
  revision: string;
  /** Null when the agent's knowledge is too large for the budget at this revision. */
  index: LexicalIndex | null;
}

interface BuildState {
  running: Promise<void> | null;
  notBefore: number;
}

export interface LexicalIndexCacheOptions {
  /** Memory the indexes of all agents may hold together; 0 turns the cache off. */
  budgetBytes: number;
  now?: () => number;
  onError?: (error: unknown, agentId: string) => void;
}

/**
 * Per-agent in-memory lexical indexes, each used only while it reflects exactly the agent's
 * current knowledge revision (see migration 0003); otherwise the caller searches in SQL and a
 * rebuild runs in the background. Least recently used agents are dropped past the memory budget.
 */
export class LexicalIndexCache {
  private readonly entries = new Map<string, Entry>();
  private readonly builds = new Map<string, BuildState>();
  private readonly now: () => number;
  private heldBytes = 0;
  private closed = false;
  /** Searches answered from memory, searches sent to SQL, and indexes built: for /metrics and tests. */
  readonly counts = { hits: 0, misses: 0, builds: 0 };

  constructor(private readonly options: LexicalIndexCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Memory held by the cached indexes (approximate). */
  get bytes(): number {
    return this.heldBytes;
  }

  /**
   * The agent's index when it is exactly at `revision`; otherwise null, after starting a build
   * in the background unless one is running or one ran too recently.
   */
  current(db: Database, agentId: string, embedder: string, revision: string): LexicalIndex | null {
    if (this.options.budgetBytes <= 0) {
      this.counts.misses += 1;
      return null;
    }
    const key = `${agentId}\u0000${embedder}`;
    const entry = this.entries.get(key);
    if (entry?.revision === revision && entry.index) {
      // Most recently used last, for eviction.
      this.entries.delete(key);
      this.entries.set(key, entry);
      this.counts.hits += 1;
      return entry.index;
    }
    this.counts.misses += 1;
    // Too large for the budget at this revision: no point building it again until it changes.
    if (entry?.revision !== revision) this.startBuild(db, key, agentId, embedder);
    return null;
  }

  /** At shutdown: no new builds, and a build cut short by the store closing is not reported as failed. */
  async close(): Promise<void> {
    this.closed = true;
    await this.settled();
  }

  /** Resolves when no build is running (for tests and benchmarks). */
  async settled(): Promise<void> {
    await Promise.all([...this.builds.values()].map((build) => build.running));
  }

  private startBuild(db: Database, key: string, agentId: string, embedder: string): void {
    const state = this.builds.get(key) ?? { running: null, notBefore: 0 };
    this.builds.set(key, state);
    if (this.closed || state.running || this.now() < state.notBefore) return;
    const started = this.now();
    state.running = this.build(db, key, agentId, embedder).then(
      () => {
        state.notBefore = this.now() + Math.max(MIN_REBUILD_INTERVAL_MS, REBUILD_DUTY_FACTOR * (this.now() - started));
      },
      (error: unknown) => {
        state.notBefore = this.now() + FAILURE_BACKOFF_MS;
        if (!this.closed) this.options.onError?.(error, agentId);
      },
    ).finally(() => {
      state.running = null;
    });
  }

  private async build(db: Database, key: string, agentId: string, embedder: string): Promise<void> {
    // The revision is read first: whatever commits after it moves the counter past it, so an
    // index labelled with it is never taken for newer than it is.
    const { revision, postings } = await readKnowledgeHead(db, agentId, embedder);
    if (LexicalIndex.estimateBytes(postings) > this.options.budgetBytes) {
      this.store(key, { revision, index: null });
      return;
    }
    // Each batch becomes postings before the next is read; served between slices (a large agent's index is 200 ms of CPU).
    const pause = () => new Promise<void>((resolve) => setImmediate(resolve));
    const builder = new LexicalIndexBuilder();
    for (let after = 0; ; ) {
      const batch = await readIndexedChunks(db, { agentId, embedder, after, limit: BUILD_BATCH });
      await builder.add(batch, pause);
      if (batch.length < BUILD_BATCH) break;
      after = batch[batch.length - 1]!.chunkId;
    }
    const index = await builder.finish(pause);
    if (this.closed) return;
    this.store(key, { revision, index });
    this.counts.builds += 1;
  }

  private store(key: string, built: Entry): void {
    this.drop(key);
    // Larger than the whole budget (the estimate can be short): remembered as too large instead.
    const entry = built.index && built.index.byteSize > this.options.budgetBytes ? { revision: built.revision, index: null } : built;
    this.entries.set(key, entry);
    this.heldBytes += entry.index?.byteSize ?? 0;
    for (const [other] of this.entries) {
      if (this.heldBytes <= this.options.budgetBytes) break;
      if (other !== key) this.drop(other);
    }
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.heldBytes -= entry.index?.byteSize ?? 0;
    this.entries.delete(key);
  }
}
