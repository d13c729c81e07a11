/**
 * Set once per connection: HNSW scans iterate until enough rows pass the agent filter (pgvector
 * 0.8 iterative scans) and look at 100 candidates, so one agent among many still gets its top k.
 * Postgres takes them as connection options; PGlite runs the statement when it opens.
 */
export const VECTOR_SEARCH_OPTIONS = "-c hnsw.iterative_scan=strict_order -c hnsw.ef_search=100";

export const VECTOR_SEARCH_SETTINGS =
  "SELECT set_config('hnsw.iterative_scan', 'strict_order', false), set_config('hnsw.ef_search', '100', false)";
