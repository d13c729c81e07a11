import { LexemeStatistics } from "./lexeme-statistics.js";
import { LexicalIndexCache } from "./lexical-index-cache.js";
import { OwnVectorIndexes } from "./own-vector-indexes.js";

/** What retrieval keeps in memory between questions, per process. */
export interface RetrievalCaches {
  /** Document frequencies for the SQL path. */
  statistics: LexemeStatistics;
  /** Whole in-memory indexes, used while current. */
  indexes: LexicalIndexCache;
  /** Which agents' vectors have an HNSW index of their own. */
  ownVectorIndexes: OwnVectorIndexes;
}

export function createRetrievalCaches(options: {
  indexBudgetBytes: number;
  onIndexError?: (error: unknown, agentId: string) => void;
  /** The clock that spaces rebuilds and statistics refreshes; tests move it. */
  now?: () => number;
}): RetrievalCaches {
  return {
    statistics: new LexemeStatistics(options.now),
    indexes: new LexicalIndexCache({
      budgetBytes: options.indexBudgetBytes,
      ...(options.onIndexError ? { onError: options.onIndexError } : {}),
      ...(options.now ? { now: options.now } : {}),
    }),
    ownVectorIndexes: new OwnVectorIndexes(options.now),
  };
}
