import type { Queryable } from "../db/database.js";
import { upsertRevisionsOf } from "./knowledge-revision-repository.js";

/**
 * An owner leaves a page out of the agent's knowledge (issue 32 §3). Excluding deletes its chunks
 * and moves the agent's knowledge revision in the same transaction, so no answer after the commit
 * can cite it (the lexical caches trust the revision). Its content hash and validators are
 * dropped with its chunks, so that including it again fetches and embeds it anew rather than
 * finding it "unchanged" with nothing indexed. Re-syncs leave an `excluded` document alone.
 */

export interface ExcludedDocument {
  id: number;
  agentId: string;
  /** It had chunks: the knowledge changed. */
  hadChunks: boolean;
}

/**
 * Excludes the source's document, in the caller's transaction; null when the source has no such
 * document. Three statements, not one: the UPDATE waits for a page job writing the document to
 * commit, and the DELETE that follows then sees the chunks that job wrote (a single statement's
 * snapshot would not). Excluding an excluded document changes nothing.
 */
export async function excludeDocument(tx: Queryable, sourceId: string, documentId: number): Promise<ExcludedDocument | null> {
  const { rows } = await tx.query<{ id: number; agent_id: string }>(
    `UPDATE documents SET status = 'excluded', chunk_count = 0, content_hash = NULL, etag = NULL, last_modified = NULL, error = NULL, updated_at = now()
     WHERE id = $1 AND source_id = $2 RETURNING id::int AS id, agent_id`,
    [documentId, sourceId],
  );
  const row = rows[0];
  if (!row) return null;
  const removed = await tx.query<{ n: number }>(`WITH removed AS (DELETE FROM chunks WHERE document_id = $1 RETURNING 1) SELECT count(*)::int AS n FROM removed`, [documentId]);
  const hadChunks = (removed.rows[0]?.n ?? 0) > 0;
  // Last, so that the revision's row lock is held only while the transaction commits.
  if (hadChunks) await tx.query(upsertRevisionsOf("SELECT $1::text"), [row.agent_id]);
  return { id: row.id, agentId: row.agent_id, hadChunks };
}

/**
 * Includes an excluded document again: it becomes `pending` for its source's indexing to read it
 * anew. Returns whether it was excluded (false: not excluded, or no such document).
 */
export async function includeDocument(tx: Queryable, sourceId: string, documentId: number): Promise<boolean> {
  const { rows } = await tx.query<{ id: number }>(
    `UPDATE documents SET status = 'pending', error = NULL, updated_at = now() WHERE id = $1 AND source_id = $2 AND status = 'excluded' RETURNING id::int AS id`,
    [documentId, sourceId],
  );
  return rows.length > 0;
}
