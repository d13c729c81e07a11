import { Counter, Gauge, type Registry } from "prom-client";

/** What the metrics read of the in-memory lexical indexes (answering's LexicalIndexCache gives it). */
export interface LexicalIndexCounts {
  /** Searches served from a current index (hits) or in SQL (misses), and indexes built, since start. */
  readonly counts: { readonly hits: number; readonly misses: number; readonly builds: number };
  /** Approximate memory the indexes hold. */
  readonly bytes: number;
}

/** How lexical search was served (in-memory index or SQL) and what the indexes hold, read at scrape time. */
export function registerRetrievalMetrics(registry: Registry, indexes: LexicalIndexCounts): void {
  const reported = { hits: 0, misses: 0 };
  new Counter({
    name: "frontdesk_lexical_searches_total",
    help: "Lexical (BM25) searches by where they were scored: memory (a current in-memory index) or sql.",
    labelNames: ["path"] as const,
    registers: [registry],
    collect() {
      this.inc({ path: "memory" }, indexes.counts.hits - reported.hits);
      this.inc({ path: "sql" }, indexes.counts.misses - reported.misses);
      reported.hits = indexes.counts.hits;
      reported.misses = indexes.counts.misses;
    },
  });
  new Gauge({
    name: "frontdesk_lexical_index_bytes",
    help: "Approximate memory held by in-memory lexical indexes (FRONTDESK_RETRIEVAL_INDEX_MB bounds it).",
    registers: [registry],
    collect() {
      this.set(indexes.bytes);
    },
  });
  new Counter({
    name: "frontdesk_lexical_index_builds_total",
    help: "In-memory lexical indexes built since start.",
    registers: [registry],
    collect() {
      this.reset();
      this.inc(indexes.counts.builds);
    },
  });
}
