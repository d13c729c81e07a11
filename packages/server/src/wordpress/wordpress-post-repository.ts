import type { Queryable } from "../db/database.js";
import { deleteSourceDocuments, type PluginSourceRef } from "../ingest/documents.js";

/**
 * The SQL of WordPress sync on `wordpress_posts` (migration 0018). The agent's one source of kind
 * `wordpress` is sources/' (sources/sources.ts), its documents ingest's (ingest/documents.ts);
 * the reads here join the posts to their documents, one indexed statement per batch.
 */

export interface StoredPost {
  postId: number;
  documentId: number | null;
  /** The post's document's state, when it has one. */
  documentStatus: "pending" | "indexed" | "failed" | null;
  url: string;
  postStatus: string;
  postType: string;
  modifiedAt: string;
  contentHash: string;
}

/** A post as a push writes it: `content` is null for an unpublished post (nothing of a draft is kept). */
export interface PostToStore {
  postId: number;
  documentId: number | null;
  url: string;
  title: string;
  postType: string;
  postStatus: string;
  modifiedAt: string;
  contentHash: string;
  content: string | null;
}

/** The stored posts of a batch, by post ID, with their documents' states (primary key, then documents' key). */
export async function findStoredPosts(db: Queryable, agentId: string, postIds: readonly number[]): Promise<Map<number, StoredPost>> {
  if (postIds.length === 0) return new Map();
  const { rows } = await db.query<{
    post_id: number;
    document_id: number | null;
    document_status: "pending" | "indexed" | "failed" | null;
    url: string;
    post_status: string;
    post_type: string;
    modified_at: Date;
    content_hash: string;
  }>(
    `SELECT p.post_id::float8 AS post_id, p.document_id::float8 AS document_id, d.status AS document_status, p.url, p.post_status, p.post_type,
       p.modified_at, p.content_hash
     FROM wordpress_posts p LEFT JOIN documents d ON d.id = p.document_id
     WHERE p.agent_id = $1 AND p.post_id IN (SELECT (jsonb_array_elements_text($2::jsonb))::bigint)`,
    [agentId, JSON.stringify(postIds)],
  );
  return new Map(
    rows.map((row) => [
      Number(row.post_id),
      {
        postId: Number(row.post_id),
        documentId: row.document_id === null ? null : Number(row.document_id),
        documentStatus: row.document_status,
        url: row.url,
        postStatus: row.post_status,
        postType: row.post_type,
        modifiedAt: new Date(row.modified_at).toISOString(),
        contentHash: row.content_hash,
      },
    ]),
  );
}

/** Which post holds each of these URLs in the source's documents (documents_source_url_idx, then wordpress_posts_document_idx). */
export async function findUrlHolders(db: Queryable, sourceId: string, urls: readonly string[]): Promise<Map<string, number>> {
  if (urls.length === 0) return new Map();
  const { rows } = await db.query<{ url: string; post_id: number }>(
    `SELECT d.url, p.post_id::float8 AS post_id FROM documents d JOIN wordpress_posts p ON p.document_id = d.id
     WHERE d.source_id = $1 AND d.url IN (SELECT jsonb_array_elements_text($2::jsonb))`,
    [sourceId, JSON.stringify(urls)],
  );
  return new Map(rows.map((row) => [row.url, Number(row.post_id)]));
}

/** Inserts or replaces the posts (one statement; the primary key decides). */
export async function upsertPosts(tx: Queryable, source: PluginSourceRef, posts: readonly PostToStore[]): Promise<void> {
  if (posts.length === 0) return;
  await tx.query(
    `INSERT INTO wordpress_posts AS p (agent_id, post_id, workspace_id, source_id, document_id, url, title, post_type, post_status, modified_at, content_hash, content)
     SELECT $1, v.post_id, $2, $3, v.document_id, v.url, v.title, v.post_type, v.post_status, v.modified_at, v.content_hash, v.content
     FROM jsonb_to_recordset($4::jsonb) AS v (post_id bigint, document_id bigint, url text, title text, post_type text, post_status text,
       modified_at timestamptz, content_hash text, content text)
     ON CONFLICT (agent_id, post_id) DO UPDATE SET
       source_id = EXCLUDED.source_id, document_id = EXCLUDED.document_id, url = EXCLUDED.url, title = EXCLUDED.title,
       post_type = EXCLUDED.post_type, post_status = EXCLUDED.post_status, modified_at = EXCLUDED.modified_at,
       content_hash = EXCLUDED.content_hash, content = EXCLUDED.content, updated_at = now()`,
    [
      source.agentId,
      source.workspaceId,
      source.id,
      JSON.stringify(
        posts.map((post) => ({
          post_id: post.postId,
          document_id: post.documentId,
          url: post.url,
          title: post.title,
          post_type: post.postType,
          post_status: post.postStatus,
          modified_at: post.modifiedAt,
          content_hash: post.contentHash,
          content: post.content,
        })),
      ),
    ],
  );
}

/** An unchanged post's bookkeeping (its modification time, type, status spelling): nothing to index. */
export async function touchUnchangedPosts(
  tx: Queryable,
  agentId: string,
  posts: readonly { postId: number; modifiedAt: string; postType: string; postStatus: string }[],
): Promise<void> {
  if (posts.length === 0) return;
  await tx.query(
    `UPDATE wordpress_posts p SET modified_at = v.modified_at, post_type = v.post_type, post_status = v.post_status, updated_at = now()
     FROM jsonb_to_recordset($2::jsonb) AS v (post_id bigint, modified_at timestamptz, post_type text, post_status text)
     WHERE p.agent_id = $1 AND p.post_id = v.post_id`,
    [agentId, JSON.stringify(posts.map((post) => ({ post_id: post.postId, modified_at: post.modifiedAt, post_type: post.postType, post_status: post.postStatus })))],
  );
}

/** Deletes one post and its document (chunks cascade, revision moved); its source when it had one. */
export async function deletePost(tx: Queryable, agentId: string, postId: number): Promise<{ sourceId: string } | null> {
  const { rows } = await tx.query<{ source_id: string; document_id: number | null }>(
    `DELETE FROM wordpress_posts WHERE agent_id = $1 AND post_id = $2 RETURNING source_id, document_id::float8 AS document_id`,
    [agentId, postId],
  );
  const row = rows[0];
  if (!row) return null;
  if (row.document_id !== null) await deleteSourceDocuments(tx, row.source_id, [Number(row.document_id)]);
  return { sourceId: row.source_id };
}

export interface PostCounts {
  total: number;
  pending: number;
  indexed: number;
  failed: number;
  unpublished: number;
}

/** The agent's posts by state (the primary key's agent_id prefix, documents by their key). */
export async function countPosts(db: Queryable, agentId: string): Promise<PostCounts> {
  const { rows } = await db.query<PostCounts>(
    `SELECT count(*)::int AS total,
       count(*) FILTER (WHERE d.status = 'pending')::int AS pending,
       count(*) FILTER (WHERE d.status = 'indexed' AND d.error IS NULL)::int AS indexed,
       count(*) FILTER (WHERE d.status = 'failed' OR (d.status = 'indexed' AND d.error IS NOT NULL))::int AS failed,
       count(*) FILTER (WHERE p.document_id IS NULL)::int AS unpublished
     FROM wordpress_posts p LEFT JOIN documents d ON d.id = p.document_id
     WHERE p.agent_id = $1`,
    [agentId],
  );
  return rows[0]!;
}

/** Posts whose last indexing failed, with why, at most `limit` (by post ID). */
export async function listFailedPosts(db: Queryable, agentId: string, limit: number): Promise<{ postId: number; url: string; error: { code: string; message: string } }[]> {
  const { rows } = await db.query<{ post_id: number; url: string; error: { code: string; message: string } }>(
    `SELECT p.post_id::float8 AS post_id, p.url, d.error FROM wordpress_posts p JOIN documents d ON d.id = p.document_id
     WHERE p.agent_id = $1 AND d.error IS NOT NULL ORDER BY p.post_id LIMIT $2`,
    [agentId, limit],
  );
  return rows.map((row) => ({ postId: Number(row.post_id), url: row.url, error: row.error }));
}
