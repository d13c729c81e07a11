import type { SourceSchedule } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { findWorkspaceSource, type SourceRecord } from "./source-repository.js";

/** Sets a source's schedule and its next re-sync (null for `off`); the workspace's source only. */
export async function setSourceSchedule(
  db: Queryable,
  workspaceId: string,
  sourceId: string,
  schedule: SourceSchedule,
  nextSyncAt: Date | null,
): Promise<SourceRecord | null> {
  await db.query(`UPDATE sources SET schedule = $3, next_sync_at = $4, updated_at = now() WHERE id = $1 AND workspace_id = $2`, [
    sourceId,
    workspaceId,
    schedule,
    nextSyncAt?.toISOString() ?? null,
  ]);
  return findWorkspaceSource(db, workspaceId, sourceId);
}

/** A scheduled source whose re-sync is due, and whether a sync of it is still under way. */
export interface DueSource {
  id: string;
  schedule: Exclude<SourceSchedule, "off">;
  syncing: boolean;
}

/**
 * Locks up to `limit` due sources, the most overdue first, skipping rows another tick holds
 * (FOR UPDATE SKIP LOCKED: two ticks never claim the same source). The read walks
 * sources_next_sync_idx, the partial index of scheduled sources; a source is `syncing` while it
 * is pending or has pages waiting (documents_source_url_idx).
 */
export async function lockDueSources(tx: Queryable, now: Date, limit: number): Promise<DueSource[]> {
  const { rows } = await tx.query<{ id: string; schedule: DueSource["schedule"]; syncing: boolean }>(
    `SELECT s.id, s.schedule,
       (s.status = 'pending' OR EXISTS (SELECT 1 FROM documents d WHERE d.source_id = s.id AND d.status = 'pending')) AS syncing
     FROM sources s
     WHERE s.schedule <> 'off' AND s.next_sync_at <= $1
     ORDER BY s.next_sync_at
     LIMIT $2
     FOR UPDATE OF s SKIP LOCKED`,
    [now.toISOString(), limit],
  );
  return rows;
}

/**
 * Moves each claimed source's next re-sync on; the ones re-synced now also have their sync
 * requested (a failed source goes back to pending, as a manual re-sync does).
 */
export async function advanceSchedules(tx: Queryable, next: { id: string; nextSyncAt: Date; resync: boolean }[]): Promise<void> {
  if (next.length === 0) return;
  await tx.query(
    `UPDATE sources s SET
       next_sync_at = v.next_sync_at::timestamptz,
       sync_requested_at = CASE WHEN v.resync THEN now() ELSE s.sync_requested_at END,
       status = CASE WHEN v.resync AND s.status = 'failed' THEN 'pending' ELSE s.status END,
       error = CASE WHEN v.resync AND s.status = 'failed' THEN NULL ELSE s.error END,
       updated_at = now()
     FROM jsonb_to_recordset($1::jsonb) AS v(id text, next_sync_at text, resync boolean)
     WHERE s.id = v.id`,
    [JSON.stringify(next.map((row) => ({ id: row.id, next_sync_at: row.nextSyncAt.toISOString(), resync: row.resync })))],
  );
}
