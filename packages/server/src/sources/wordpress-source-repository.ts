import type { Queryable } from "../db/database.js";
import { newId } from "../db/ids.js";
import { isoOrNull } from "../db/timestamps.js";

/** The SQL of the agent's one source of kind `wordpress` (index sources_agent_wordpress_idx): the WordPress sync's rows of `sources`. */

export interface WordpressSource {
  id: string;
  workspaceId: string;
  agentId: string;
}

/** The agent's `wordpress` source, created (pending) when it has none (index sources_agent_wordpress_idx). */
export async function findOrCreateWordpressSource(
  tx: Queryable,
  agent: { id: string; workspaceId: string },
  siteUrl: string,
): Promise<{ source: WordpressSource; created: boolean }> {
  const inserted = await tx.query<{ id: string }>(
    `INSERT INTO sources (id, workspace_id, agent_id, kind, config)
     VALUES ($1, $2, $3, 'wordpress', $4::jsonb)
     ON CONFLICT (agent_id) WHERE kind = 'wordpress' DO NOTHING RETURNING id`,
    [newId("src"), agent.workspaceId, agent.id, JSON.stringify({ title: "WordPress", source_url: siteUrl, pages_found: 0, pages_indexed: 0, pages_failed: 0 })],
  );
  if (inserted.rows[0]) return { source: { id: inserted.rows[0].id, workspaceId: agent.workspaceId, agentId: agent.id }, created: true };
  const found = await findWordpressSource(tx, agent.id);
  if (!found) throw new Error("the agent's wordpress source vanished while it was being created");
  return { source: found, created: false };
}

export async function findWordpressSource(db: Queryable, agentId: string): Promise<(WordpressSource & { status: "pending" | "indexed" | "failed"; syncRequestedAt: string | null; lastSyncedAt: string | null }) | null> {
  const { rows } = await db.query<{ id: string; workspace_id: string; status: "pending" | "indexed" | "failed"; sync_requested_at: Date | null; last_synced_at: Date | null }>(
    `SELECT id, workspace_id, status, sync_requested_at, last_synced_at FROM sources WHERE agent_id = $1 AND kind = 'wordpress'`,
    [agentId],
  );
  const row = rows[0];
  return row
    ? { id: row.id, workspaceId: row.workspace_id, agentId, status: row.status, syncRequestedAt: isoOrNull(row.sync_requested_at), lastSyncedAt: isoOrNull(row.last_synced_at) }
    : null;
}

/** The push changed the source: a failed one is pending again, and the push's time is kept (sync_requested_at). */
export async function markWordpressPush(tx: Queryable, sourceId: string, queued: boolean): Promise<void> {
  await tx.query(
    `UPDATE sources SET sync_requested_at = now(), updated_at = now(),
       status = CASE WHEN $2 AND status = 'failed' THEN 'pending' ELSE status END,
       error = CASE WHEN $2 AND status = 'failed' THEN NULL ELSE error END
     WHERE id = $1`,
    [sourceId, queued],
  );
}
