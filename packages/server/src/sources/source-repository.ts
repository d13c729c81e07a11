import type { Source, SourceSchedule } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { upsertRevisionsOf } from "../ingest/documents.js";
import { iso, isoOrNull } from "../db/timestamps.js";

export type SourceKind = Source["kind"];
export type SourceStatus = Source["status"];

export interface SourceRecord {
  id: string;
  workspaceId: string;
  agentId: string;
  kind: SourceKind;
  status: SourceStatus;
  config: Record<string, unknown>;
  targetUrl: string | null;
  contentHash: string | null;
  error: { code: string; message: string } | null;
  lastSyncedAt: string | null;
  /** How often it is re-synced on its own, and when next (0020). */
  schedule: SourceSchedule;
  nextSyncAt: string | null;
  createdAt: string;
}

interface SourceRow {
  id: string;
  workspace_id: string;
  agent_id: string;
  kind: SourceKind;
  status: SourceStatus;
  config: Record<string, unknown>;
  target_url: string | null;
  content_hash: string | null;
  error: { code: string; message: string } | null;
  last_synced_at: Date | null;
  schedule: SourceSchedule;
  next_sync_at: Date | null;
  created_at: Date;
}

const COLUMNS = "id, workspace_id, agent_id, kind, status, config, target_url, content_hash, error, last_synced_at, schedule, next_sync_at, created_at";

const toSource = (row: SourceRow): SourceRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  agentId: row.agent_id,
  kind: row.kind,
  status: row.status,
  config: row.config,
  targetUrl: row.target_url,
  contentHash: row.content_hash,
  error: row.error,
  lastSyncedAt: isoOrNull(row.last_synced_at),
  schedule: row.schedule,
  nextSyncAt: isoOrNull(row.next_sync_at),
  createdAt: iso(row.created_at),
});

export function presentSource(source: SourceRecord): Source {
  return {
    id: source.id,
    agent_id: source.agentId,
    kind: source.kind,
    status: source.status,
    config: source.config,
    error: source.error,
    last_synced_at: source.lastSyncedAt,
    schedule: source.schedule,
    next_sync_at: source.nextSyncAt,
    created_at: source.createdAt,
  };
}

export interface NewSource {
  id: string;
  workspaceId: string;
  agentId: string;
  kind: SourceKind;
  config: Record<string, unknown>;
  targetUrl: string | null;
  contentHash: string | null;
  /** A url or sitemap's schedule, and its first scheduled re-sync (null when `off`). */
  schedule: SourceSchedule;
  nextSyncAt: Date | null;
}

/** Inserts the source unless the agent already has it (same text hash, or same URL of the same kind): then null. */
export async function insertSourceUnlessDuplicate(db: Queryable, source: NewSource): Promise<SourceRecord | null> {
  const conflict =
    source.kind === "text" || source.kind === "file"
      ? `(agent_id, content_hash) WHERE kind = '${source.kind}'`
      : "(agent_id, kind, target_url) WHERE kind IN ('url', 'sitemap')";
  const { rows } = await db.query<SourceRow>(
    `INSERT INTO sources (id, workspace_id, agent_id, kind, config, target_url, content_hash, schedule, next_sync_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9)
     ON CONFLICT ${conflict} DO NOTHING
     RETURNING ${COLUMNS}`,
    [
      source.id,
      source.workspaceId,
      source.agentId,
      source.kind,
      JSON.stringify(source.config),
      source.targetUrl,
      source.contentHash,
      source.schedule,
      source.nextSyncAt?.toISOString() ?? null,
    ],
  );
  return rows[0] ? toSource(rows[0]) : null;
}

export async function findDuplicateSource(db: Queryable, source: NewSource): Promise<SourceRecord | null> {
  const { rows } =
    source.kind === "text" || source.kind === "file"
      ? await db.query<SourceRow>(`SELECT ${COLUMNS} FROM sources WHERE agent_id = $1 AND kind = $3 AND content_hash = $2`, [
          source.agentId,
          source.contentHash,
          source.kind,
        ])
      : await db.query<SourceRow>(`SELECT ${COLUMNS} FROM sources WHERE agent_id = $1 AND kind = $2 AND target_url = $3`, [
          source.agentId,
          source.kind,
          source.targetUrl,
        ]);
  return rows[0] ? toSource(rows[0]) : null;
}

export async function insertSourceText(db: Queryable, sourceId: string, content: string): Promise<void> {
  await db.query(`INSERT INTO source_texts (source_id, content) VALUES ($1, $2)`, [sourceId, content]);
}

export async function findSourceText(db: Queryable, sourceId: string): Promise<string | null> {
  const { rows } = await db.query<{ content: string }>(`SELECT content FROM source_texts WHERE source_id = $1`, [sourceId]);
  return rows[0]?.content ?? null;
}

/** Asks for a new sync: a failed source goes back to pending; an indexed one stays indexed until the sync ends. */
export async function requestResync(db: Queryable, sourceId: string): Promise<SourceRecord> {
  const { rows } = await db.query<SourceRow>(
    `UPDATE sources SET sync_requested_at = now(), updated_at = now(),
       status = CASE WHEN status = 'failed' THEN 'pending' ELSE status END,
       error = CASE WHEN status = 'failed' THEN NULL ELSE error END
     WHERE id = $1 RETURNING ${COLUMNS}`,
    [sourceId],
  );
  return toSource(rows[0]!);
}

export async function findSource(db: Queryable, sourceId: string): Promise<SourceRecord | null> {
  const { rows } = await db.query<SourceRow>(`SELECT ${COLUMNS} FROM sources WHERE id = $1`, [sourceId]);
  return rows[0] ? toSource(rows[0]) : null;
}

export async function findWorkspaceSource(db: Queryable, workspaceId: string, sourceId: string): Promise<SourceRecord | null> {
  const { rows } = await db.query<SourceRow>(`SELECT ${COLUMNS} FROM sources WHERE id = $1 AND workspace_id = $2`, [sourceId, workspaceId]);
  return rows[0] ? toSource(rows[0]) : null;
}

export async function listWorkspaceSources(db: Queryable, workspaceId: string, limit: number): Promise<SourceRecord[]> {
  const { rows } = await db.query<SourceRow>(
    `SELECT ${COLUMNS} FROM sources WHERE workspace_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
    [workspaceId, limit],
  );
  return rows.map(toSource);
}

/** The agent's sources in creation order (index sources_agent_created_idx). */
export async function listAgentSources(db: Queryable, agentId: string): Promise<SourceRecord[]> {
  const { rows } = await db.query<SourceRow>(`SELECT ${COLUMNS} FROM sources WHERE agent_id = $1 ORDER BY created_at, id`, [agentId]);
  return rows.map(toSource);
}

/** Deletes the source (its documents and chunks cascade); null when the workspace has no such source. */
export async function deleteWorkspaceSource(db: Queryable, workspaceId: string, sourceId: string): Promise<{ agentId: string } | null> {
  const { rows } = await db.query<{ agent_id: string }>(
    `WITH removed AS (DELETE FROM sources WHERE id = $1 AND workspace_id = $2 RETURNING agent_id),
     bumped AS (${upsertRevisionsOf("SELECT agent_id FROM removed")})
     SELECT agent_id FROM removed`,
    [sourceId, workspaceId],
  );
  return rows[0] ? { agentId: rows[0].agent_id } : null;
}

/**
 * Records the outcome of a sync. `indexed` stamps last_synced_at and clears the error. A failed
 * re-sync of a source that was indexed before keeps it `indexed` (its chunks still answer) and
 * records the error; a source never indexed becomes `failed`.
 */
/** A source as its settling left it. */
export interface SettledSource {
  id: string;
  workspaceId: string;
  agentId: string;
  status: "indexed" | "failed";
  error: { code: string; message: string } | null;
  /** Names the sync that settled (creation or the latest re-sync). */
  syncRequestedAt: string;
  settledAt: string;
}

/** What a sync ends with: its pages indexed, or the reason it failed. */
export type SourceOutcome = { status: "indexed" } | { status: "failed"; error: { code: string; message: string } };

/** Ends a source's sync (see settleSource, which queues its webhook event with it): the source as it settled, or null when it is gone. */
export async function setSourceOutcome(db: Queryable, sourceId: string, outcome: SourceOutcome, configPatch: Record<string, unknown> = {}): Promise<SettledSource | null> {
  const { rows } = await db.query<{
    id: string;
    workspace_id: string;
    agent_id: string;
    status: "indexed" | "failed";
    error: { code: string; message: string } | null;
    sync_requested_at: Date | string;
    updated_at: Date | string;
  }>(
    `UPDATE sources SET
       status = CASE WHEN $2 = 'failed' AND last_synced_at IS NOT NULL THEN 'indexed' ELSE $2 END,
       error = $3::jsonb,
       last_synced_at = CASE WHEN $2 = 'indexed' THEN now() ELSE last_synced_at END,
       config = config || $4::jsonb,
       updated_at = now()
     WHERE id = $1
     RETURNING id, workspace_id, agent_id, status, error, sync_requested_at, updated_at`,
    [sourceId, outcome.status, outcome.status === "failed" ? JSON.stringify(outcome.error) : null, JSON.stringify(configPatch)],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    agentId: row.agent_id,
    status: row.status,
    error: row.error,
    syncRequestedAt: iso(row.sync_requested_at),
    settledAt: iso(row.updated_at),
  };
}

/**
 * Locks the source's row until the transaction ends: whoever counts its documents to write its
 * progress or settle it does so after the last such writer committed, so counts taken earlier
 * never overwrite later ones (two page jobs ending together).
 */
export async function lockSource(tx: Queryable, sourceId: string): Promise<void> {
  await tx.query(`SELECT 1 FROM sources WHERE id = $1 FOR UPDATE`, [sourceId]);
}

/** A new version of a file source's file: its description and hash change, and a sync is asked for. */
export async function replaceFileOfSource(db: Queryable, sourceId: string, contentHash: string, configPatch: Record<string, unknown>): Promise<SourceRecord> {
  const { rows } = await db.query<SourceRow>(
    `UPDATE sources SET content_hash = $2, config = config || $3::jsonb, sync_requested_at = now(), updated_at = now(),
       status = CASE WHEN status = 'failed' THEN 'pending' ELSE status END,
       error = CASE WHEN status = 'failed' THEN NULL ELSE error END
     WHERE id = $1 RETURNING ${COLUMNS}`,
    [sourceId, contentHash, JSON.stringify(configPatch)],
  );
  return toSource(rows[0]!);
}

export async function patchSourceConfig(db: Queryable, sourceId: string, configPatch: Record<string, unknown>): Promise<void> {
  await db.query(`UPDATE sources SET config = config || $2::jsonb, updated_at = now() WHERE id = $1`, [sourceId, JSON.stringify(configPatch)]);
}

/** When the source's current sync was asked for (creation, a re-sync): names one sync, e.g. for its webhook event's id. */
export async function findSourceSyncRequestedAt(db: Queryable, workspaceId: string, sourceId: string): Promise<string | null> {
  const { rows } = await db.query<{ sync_requested_at: Date | string }>(`SELECT sync_requested_at FROM sources WHERE id = $1 AND workspace_id = $2`, [sourceId, workspaceId]);
  return rows[0] ? iso(rows[0].sync_requested_at) : null;
}
