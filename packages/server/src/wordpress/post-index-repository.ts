import type { Queryable } from "../db/database.js";

/** The SQL the indexing job and a re-sync of a `wordpress` source run on posts and their documents (migration 0018). */

/** Every document of the source that has a post with content: for a re-sync of the whole source. */
export async function listPostDocumentIds(db: Queryable, sourceId: string): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(
    `SELECT document_id::int AS id FROM wordpress_posts WHERE source_id = $1 AND document_id IS NOT NULL ORDER BY document_id`,
    [sourceId],
  );
  return rows.map((row) => row.id);
}

export interface PostToIndex {
  documentId: number;
  url: string;
  title: string;
  content: string;
  /** The post's hash when read: the chunks are written only if it is still the post's at write time. */
  postHash: string;
  /** The document's extracted-text hash and the embedders of its stored vectors, from its last indexing. */
  documentHash: string | null;
  embedders: string[];
  workspaceId: string;
  languageDefault: string;
}

/** The published posts behind these documents, with what indexing compares (wordpress_posts_document_idx; chunks_document_idx). */
export async function findPostsToIndex(db: Queryable, documentIds: readonly number[]): Promise<PostToIndex[]> {
  if (documentIds.length === 0) return [];
  const { rows } = await db.query<{
    document_id: number;
    url: string;
    title: string;
    content: string;
    content_hash: string;
    document_hash: string | null;
    embedders: string[];
    workspace_id: string;
    language_default: string;
  }>(
    `SELECT d.id::int AS document_id, p.url, p.title, p.content, p.content_hash, d.content_hash AS document_hash, a.language_default, d.workspace_id,
       ARRAY(SELECT DISTINCT c.embedder FROM chunks c WHERE c.document_id = d.id) AS embedders
     FROM wordpress_posts p JOIN documents d ON d.id = p.document_id JOIN agents a ON a.id = p.agent_id
     WHERE p.document_id IN (SELECT (jsonb_array_elements_text($1::jsonb))::bigint) AND p.content IS NOT NULL AND d.status <> 'excluded'
     ORDER BY d.id`,
    [JSON.stringify(documentIds)],
  );
  return rows.map((row) => ({
    documentId: row.document_id,
    url: row.url,
    title: row.title,
    content: row.content,
    postHash: row.content_hash,
    documentHash: row.document_hash,
    embedders: row.embedders,
    workspaceId: row.workspace_id,
    languageDefault: row.language_default,
  }));
}

/** Locks the posts of these documents until the transaction ends; their current hashes by document. */
export async function lockPostsOfDocuments(tx: Queryable, documentIds: readonly number[]): Promise<Map<number, string>> {
  if (documentIds.length === 0) return new Map();
  const { rows } = await tx.query<{ document_id: number; content_hash: string }>(
    `SELECT document_id::int AS document_id, content_hash FROM wordpress_posts
     WHERE document_id IN (SELECT (jsonb_array_elements_text($1::jsonb))::bigint) AND content IS NOT NULL
     ORDER BY document_id FOR UPDATE`,
    [JSON.stringify(documentIds)],
  );
  return new Map(rows.map((row) => [row.document_id, row.content_hash]));
}
