import type { Queryable } from "../db/database.js";
import { upsertRevisionsOf } from "./knowledge-revision-repository.js";

/**
 * The SQL of the documents of a source whose kind syncs its own way (WordPress: its posts are
 * pushed): the plugin decides which URLs are documents, ingest/ writes them.
 */

/** The source the documents belong to. */
export interface PluginSourceRef {
  id: string;
  workspaceId: string;
  agentId: string;
}

/** New pending documents of the source for these URLs; their ids by URL. */
export async function insertPendingDocuments(tx: Queryable, source: PluginSourceRef, urls: readonly string[]): Promise<Map<string, number>> {
  if (urls.length === 0) return new Map();
  const { rows } = await tx.query<{ id: number; url: string }>(
    `INSERT INTO documents (source_id, workspace_id, agent_id, url, status)
     SELECT $1, $2, $3, url, 'pending' FROM jsonb_array_elements_text($4::jsonb) AS url
     RETURNING id::int AS id, url`,
    [source.id, source.workspaceId, source.agentId, JSON.stringify(urls)],
  );
  return new Map(rows.map((row) => [row.url, row.id]));
}

/** Existing documents to index again: pending (an excluded one stays excluded), under its (maybe new) URL; their chunks keep answering meanwhile. */
export async function requeueDocumentsAtUrls(tx: Queryable, sourceId: string, documents: readonly { id: number; url: string }[]): Promise<void> {
  if (documents.length === 0) return;
  await tx.query(
    `UPDATE documents d SET url = v.url, status = CASE WHEN d.status = 'excluded' THEN 'excluded' ELSE 'pending' END, error = NULL, updated_at = now()
     FROM jsonb_to_recordset($2::jsonb) AS v (id bigint, url text)
     WHERE d.id = v.id AND d.source_id = $1`,
    [sourceId, JSON.stringify(documents)],
  );
}

/** Deletes documents of the source (their chunks cascade) and moves the agent's knowledge revision in the same statement. */
export async function deleteSourceDocuments(tx: Queryable, sourceId: string, documentIds: readonly number[]): Promise<number> {
  if (documentIds.length === 0) return 0;
  const { rows } = await tx.query<{ removed: number }>(
    `WITH removed AS (
       DELETE FROM documents WHERE source_id = $1 AND id IN (SELECT (jsonb_array_elements_text($2::jsonb))::bigint) RETURNING agent_id, chunk_count
     ), bumped AS (
       ${upsertRevisionsOf("SELECT agent_id FROM removed WHERE chunk_count > 0")}
     )
     SELECT count(*)::int AS removed FROM removed`,
    [sourceId, JSON.stringify(documentIds)],
  );
  return rows[0]?.removed ?? 0;
}

/** Marks every document of the source pending but the excluded ones (a re-sync of a whole pushed source); their chunks keep answering meanwhile. */
export async function requeueAllSourceDocuments(tx: Queryable, sourceId: string): Promise<void> {
  await tx.query(`UPDATE documents SET status = 'pending', error = NULL, updated_at = now() WHERE source_id = $1 AND status <> 'excluded'`, [sourceId]);
}
