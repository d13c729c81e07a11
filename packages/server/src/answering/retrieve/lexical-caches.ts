import { LexemeStatistics } from "./lexeme-statistics.js";
import { LexicalIndexCache } from "./lexical-index-cache.js";

/** What lexical search keeps in memory between questions, per process. */
export interface LexicalCaches {
  /** Document frequencies for the SQL path. */
  statistics: LexemeStatistics;
  /** Whole in-memory indexes, used while current. */
  indexes: LexicalIndexCache;
}

export function createLexicalCaches(options: {
  indexBudgetBytes: number;
  onIndexError?: (error: unknown, agentId: string) => void;
  /** The clock that spaces rebuilds and statistics refreshes; tests move it. */
  now?: () => number;
}): LexicalCaches {
  return {
    statistics: new LexemeStatistics(options.now),
    indexes: new LexicalIndexCache({
      budgetBytes: options.indexBudgetBytes,
      ...(options.onIndexError ? { onError: options.onIndexError } : {}),
      ...(options.now ? { now: options.now } : {}),
    }),
  };
}
