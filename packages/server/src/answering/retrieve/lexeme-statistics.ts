import type { Database } from "../../db/database.js";
import { CompoundSpellings } from "./compound-spellings.js";

/** What BM25 needs to know about one agent's chunks (of one embedder). */
export interface CorpusStatistics {
  chunkCount: number;
  averageLength: number;
  /** Lexeme → number of chunks containing it. */
  documentFrequency: Map<string, number>;
  /** The other spelling of compounds ("ebik" → "e-bik"). */
  compounds: CompoundSpellings;
}

const FRESH_MS = 5 * 60_000;

interface Entry {
  statistics: CorpusStatistics;
  /** The agent's knowledge revision read before the statistics were computed. */
  revision: string;
  loadedAt: number;
  refreshing: Promise<CorpusStatistics> | null;
}

/**
 * Per-agent lexeme statistics for BM25, computed with one `ts_stat` pass and kept in memory, and
 * in `lexeme_statistics` (migration 0052) for the processes that start later: a process reads them
 * there while the agent's knowledge revision is the one they were taken at.
 * Counting document frequencies per query would scan the agent's chunks once per word; instead
 * they are cached, refreshed in the background once the agent's knowledge revision has moved and
 * five minutes have passed, and dropped when this process re-indexes the agent (other processes
 * catch up within the five minutes: ranking tolerates it). The pass reads every chunk of the agent
 * (4.7 s at 100,000 chunks on a shared 2-core machine), so an agent whose knowledge does not change
 * is never read again.
 */
export class LexemeStatistics {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<CorpusStatistics>>();
  /** Passes over an agent's chunks, for tests. */
  readonly counts = { loads: 0 };

  constructor(private readonly now: () => number = Date.now) {}

  /** `revision`: the agent's knowledge revision as the caller read it; when given and unchanged, the statistics are not recomputed. */
  async get(db: Database, agentId: string, embedder: string, revision?: string): Promise<CorpusStatistics> {
    const key = `${agentId}\u0000${embedder}`;
    const entry = this.entries.get(key);
    if (entry) {
      const changed = revision === undefined || revision !== entry.revision;
      if (changed && this.now() - entry.loadedAt > FRESH_MS && !entry.refreshing) {
        entry.refreshing = this.load(db, key, agentId, embedder).finally(() => {
          entry.refreshing = null;
        });
        entry.refreshing.catch(() => undefined);
      }
      return entry.statistics;
    }
    let pending = this.loading.get(key);
    if (!pending) {
      pending = this.load(db, key, agentId, embedder).finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
    }
    return pending;
  }

  /** The agent's chunks changed: the next query recomputes. */
  invalidate(agentId: string): void {
    for (const key of this.entries.keys()) if (key.startsWith(`${agentId}\u0000`)) this.entries.delete(key);
  }

  private async load(db: Database, key: string, agentId: string, embedder: string): Promise<CorpusStatistics> {
    // The revision first: whatever commits after it moves it past it, so the statistics are never
    // taken for newer than they are. With it, the copy stored at that revision, if there is one.
    const { rows } = await db.query<StoredRow & { revision: string }>(
      `SELECT r.revision::text AS revision, s.chunk_count, s.average_length, s.document_frequencies
       FROM (SELECT coalesce((SELECT revision FROM knowledge_revisions WHERE agent_id = $1), 0) AS revision) r
       LEFT JOIN lexeme_statistics s ON s.agent_id = $1 AND s.embedder = $2 AND s.revision = r.revision`,
      [agentId, embedder],
    );
    const revision = rows[0]?.revision ?? "0";
    const statistics = storedStatistics(rows[0]) ?? (await this.compute(db, agentId, embedder, revision));
    this.entries.set(key, { statistics, revision, loadedAt: this.now(), refreshing: null });
    return statistics;
  }

  /** One pass over the agent's chunks, whose result is stored for the next process (unless a newer one is). */
  private async compute(db: Database, agentId: string, embedder: string, revision: string): Promise<CorpusStatistics> {
    this.counts.loads += 1;
    const totals = await db.query<{ n: number; average: number | null }>(
      `SELECT count(*)::int AS n, avg(length(search_vector))::float8 AS average FROM chunks WHERE agent_id = $1 AND embedder = $2`,
      [agentId, embedder],
    );
    const { rows } = await db.query<{ word: string; ndoc: number }>(
      `SELECT word, ndoc FROM ts_stat(format('SELECT search_vector FROM chunks WHERE agent_id = %L AND embedder = %L', $1::text, $2::text))`,
      [agentId, embedder],
    );
    const documentFrequency = new Map(rows.map((row) => [row.word, Number(row.ndoc)]));
    const chunkCount = totals.rows[0]?.n ?? 0;
    const averageLength = Number(totals.rows[0]?.average ?? 1) || 1;
    await db.query(
      `INSERT INTO lexeme_statistics AS s (agent_id, embedder, revision, chunk_count, average_length, document_frequencies)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb)
       ON CONFLICT (agent_id, embedder) DO UPDATE
         SET revision = EXCLUDED.revision, chunk_count = EXCLUDED.chunk_count, average_length = EXCLUDED.average_length,
             document_frequencies = EXCLUDED.document_frequencies, computed_at = now()
         WHERE s.revision < EXCLUDED.revision`,
      // Pairs in the pass's order (an object would put number-like lexemes first), so a stored copy ranks as the pass did.
      [agentId, embedder, revision, chunkCount, averageLength, JSON.stringify([...documentFrequency])],
    );
    return { chunkCount, averageLength, documentFrequency, compounds: new CompoundSpellings(documentFrequency.keys()) };
  }
}

/** A row of `lexeme_statistics`; its columns are null when no copy is stored at the current revision. */
interface StoredRow {
  chunk_count: number | null;
  average_length: number | null;
  document_frequencies: [string, number][] | null;
}

/** The statistics another process stored at the current revision; null when there are none. */
function storedStatistics(row: StoredRow | undefined): CorpusStatistics | null {
  if (!row || row.chunk_count === null || row.document_frequencies === null) return null;
  // Both stores' drivers parse jsonb: the pairs arrive as an array.
  const documentFrequency = new Map(row.document_frequencies);
  return { chunkCount: row.chunk_count, averageLength: Number(row.average_length), documentFrequency, compounds: new CompoundSpellings(documentFrequency.keys()) };
}
