/** The SQLSTATE of a store error (`code`, as pg and PGlite report it), or "" for anything else. */
export const sqlStateOf = (error: unknown): string =>
  typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : "";

/**
 * deadlock_detected, serialization_failure: Postgres ended the statement for what another
 * transaction did at the same moment; the same work sent again can go through.
 */
export const CONCURRENCY_SQL_STATES: ReadonlySet<string> = new Set(["40P01", "40001"]);
