import type { Migration } from "./migration.js";

/**
 * Scheduled re-sync of url and sitemap sources (issue 14 §3).
 *
 * `sources.schedule` is `off`, `hourly`, `daily` or `weekly`; `next_sync_at` is when the scheduler
 * enqueues the source's next re-sync (null while `off`). The scheduler's tick reads the due
 * sources through `sources_next_sync_idx`, a partial index holding only scheduled sources, so the
 * many sources that are never re-synced cost it nothing.
 *
 * Each page keeps the validators its last answer carried (`etag`, `last_modified`) so that a
 * re-sync asks conditionally (`If-None-Match`, `If-Modified-Since`); `documents.content_hash`
 * (0002) already holds the extracted content's hash that decides whether a page is re-embedded.
 */
export const sourceSchedules: Migration = {
  name: "0020-source-schedules",
  statements: [
    `ALTER TABLE sources ADD COLUMN schedule text NOT NULL DEFAULT 'off' CHECK (schedule IN ('off', 'hourly', 'daily', 'weekly'))`,
    `ALTER TABLE sources ADD COLUMN next_sync_at timestamptz`,
    `CREATE INDEX sources_next_sync_idx ON sources (next_sync_at) WHERE schedule <> 'off'`,
    `ALTER TABLE documents ADD COLUMN etag text`,
    `ALTER TABLE documents ADD COLUMN last_modified text`,
  ],
};
