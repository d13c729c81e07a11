import type { Queryable } from "../db/database.js";
import { iso } from "../db/timestamps.js";
import { bumpKnowledgeRevision, upsertRevisionsOf } from "./knowledge-revision-repository.js";
import { storedVector, unitVectorIntegers } from "../db/vector-literal.js";
import { vectorIndexedOf } from "./index-agent-vectors.js";

/** `excluded`: its owner left it out of the knowledge (no chunks; re-syncs skip it until it is included again). */
export type DocumentStatus = "pending" | "indexed" | "failed" | "excluded";

/** A page (or pushed text) of a source, with what indexing it needs to know. */
export interface DocumentRecord {
  id: number;
  sourceId: string;
  workspaceId: string;
  agentId: string;
  url: string;
  status: DocumentStatus;
  contentHash: string | null;
  /** The embedders whose vectors of the document are stored (two while its workspace re-embeds). */
  embedders: string[];
  languageDefault: string;
  updatedAt: string;
  /** The validators of the answer the document was last indexed from (0020): a re-sync asks conditionally. */
  etag: string | null;
  lastModified: string | null;
}

export interface ChunkToStore {
  index: number;
  title: string;
  heading: string | null;
  content: string;
  tokenEstimate: number;
  embedding: Float32Array;
  /** The page of its document it came from (a PDF's), when it has pages. */
  page?: number | null;
}

/**
 * The document for each URL of a source, created when missing and otherwise made pending (an
 * excluded one stays excluded); returns their ids in URL order.
 */
export async function upsertDocuments(
  db: Queryable,
  source: { id: string; workspaceId: string; agentId: string },
  urls: string[],
): Promise<number[]> {
  return (await upsertDocumentStates(db, source, urls)).map((document) => document.id);
}

/** `upsertDocuments`, keeping only the documents to index: the excluded ones are left out. */
export async function upsertDocumentsToIndex(db: Queryable, source: { id: string; workspaceId: string; agentId: string }, urls: string[]): Promise<number[]> {
  return (await upsertDocumentStates(db, source, urls)).filter((document) => !document.excluded).map((document) => document.id);
}

async function upsertDocumentStates(
  db: Queryable,
  source: { id: string; workspaceId: string; agentId: string },
  urls: string[],
): Promise<{ id: number; excluded: boolean }[]> {
  if (urls.length === 0) return [];
  const { rows } = await db.query<{ id: number; url: string; excluded: boolean }>(
    `INSERT INTO documents AS d (source_id, workspace_id, agent_id, url, status)
     SELECT $1, $2, $3, url, 'pending' FROM jsonb_array_elements_text($4::jsonb) AS url
     ON CONFLICT (source_id, url) DO UPDATE SET status = CASE WHEN d.status = 'excluded' THEN 'excluded' ELSE 'pending' END, error = NULL, updated_at = now()
     RETURNING id::int AS id, url, status = 'excluded' AS excluded`,
    [source.id, source.workspaceId, source.agentId, JSON.stringify(urls)],
  );
  const byUrl = new Map(rows.map((row) => [row.url, row]));
  return urls.map((url) => ({ id: byUrl.get(url)!.id, excluded: byUrl.get(url)!.excluded }));
}

/** Drops the source's documents (and, by cascade, their chunks) whose URL is no longer listed. */
export async function deleteDocumentsNotIn(db: Queryable, sourceId: string, urls: string[]): Promise<number> {
  const { rows } = await db.query<{ removed: number }>(
    `WITH removed AS (
       DELETE FROM documents WHERE source_id = $1 AND NOT (url = ANY (SELECT jsonb_array_elements_text($2::jsonb))) RETURNING agent_id, chunk_count
     ), bumped AS (
       ${upsertRevisionsOf("SELECT agent_id FROM removed WHERE chunk_count > 0")}
     )
     SELECT count(*)::int AS removed FROM removed`,
    [sourceId, JSON.stringify(urls)],
  );
  return rows[0]?.removed ?? 0;
}

export async function findDocument(db: Queryable, documentId: number): Promise<DocumentRecord | null> {
  const { rows } = await db.query<{
    id: number;
    source_id: string;
    workspace_id: string;
    agent_id: string;
    url: string;
    status: DocumentStatus;
    content_hash: string | null;
    embedders: string[];
    language_default: string;
    updated_at: Date;
    etag: string | null;
    last_modified: string | null;
  }>(
    `SELECT d.id::int AS id, d.source_id, d.workspace_id, d.agent_id, d.url, d.status, d.content_hash, a.language_default, d.updated_at, d.etag, d.last_modified,
       ARRAY(SELECT DISTINCT c.embedder FROM chunks c WHERE c.document_id = d.id) AS embedders
     FROM documents d JOIN agents a ON a.id = d.agent_id WHERE d.id = $1`,
    [documentId],
  );
  const row = rows[0];
  return row
    ? {
        id: row.id,
        sourceId: row.source_id,
        workspaceId: row.workspace_id,
        agentId: row.agent_id,
        url: row.url,
        status: row.status,
        contentHash: row.content_hash,
        embedders: row.embedders,
        languageDefault: row.language_default,
        updatedAt: iso(row.updated_at),
        etag: row.etag,
        lastModified: row.last_modified,
      }
    : null;
}

/** The validators of the answer a document's content was read from (null when the answer had none). */
export interface DocumentValidators {
  etag: string | null;
  lastModified: string | null;
}


/** Drops one document (its page is gone: 404 or 410) with its chunks; true when it existed. */
export async function deleteDocument(db: Queryable, documentId: number): Promise<boolean> {
  const { rows } = await db.query<{ removed: number }>(
    `WITH removed AS (
       DELETE FROM documents WHERE id = $1 RETURNING agent_id, chunk_count
     ), bumped AS (
       ${upsertRevisionsOf("SELECT agent_id FROM removed WHERE chunk_count > 0")}
     )
     SELECT count(*)::int AS removed FROM removed`,
    [documentId],
  );
  return (rows[0]?.removed ?? 0) > 0;
}


/**
 * Swaps the document's chunks for new ones in one statement (so in one transaction, the caller's
 * if it has one): answers see either every old chunk or every new one, never a mix or none. The
 * document row is updated with the content's title and hash (and the answer's validators when
 * given), its old chunks deleted, the new ones inserted (passed as one JSON parameter, whatever
 * their number), and the agent's knowledge revision moved after them. False, with nothing
 * written, when the document is gone or was excluded meanwhile. One statement rather than five is one round trip to
 * PGlite's thread instead of seven (with BEGIN and COMMIT), for every page indexed.
 */
export async function replaceDocumentChunks(
  db: Queryable,
  document: { id: number; agentId: string },
  content: {
    title: string;
    contentHash: string;
    embedder: string;
    dimensions: number;
    textSearchConfig: string;
    validators?: DocumentValidators;
    /** The extracted text and the size of what it was read from, shown to the owner. */
    text?: string;
    contentBytes?: number;
  },
  chunks: ChunkToStore[],
): Promise<boolean> {
  const validators = content.validators;
  const rows = chunks.map((chunk) => ({
    chunk_index: chunk.index,
    title: chunk.title,
    heading: chunk.heading,
    content: chunk.content,
    token_estimate: chunk.tokenEstimate,
    embedding: unitVectorIntegers(chunk.embedding),
    page: chunk.page ?? null,
  }));
  const { rows: result } = await db.query<{ stored: boolean }>(
    `WITH document AS (
       UPDATE documents SET status = 'indexed', title = $3, content_hash = $4, error = NULL, chunk_count = $5,
         indexed_at = now(), updated_at = now(), extracted_text = $10, content_bytes = $11${validators ? ", etag = $12, last_modified = $13" : ""}
       WHERE id = $1 AND status <> 'excluded' RETURNING id
     ), removed AS (
       DELETE FROM chunks WHERE document_id = (SELECT id FROM document)
     ), added AS (
       INSERT INTO chunks (document_id, agent_id, chunk_index, title, heading, content, token_estimate, embedder, dimensions, embedding, search_vector, vector_indexed, page)
       SELECT document.id, $2::text, r.chunk_index, r.title, r.heading, r.content, r.token_estimate, $6, $7, ${storedVector("r.embedding")},
         setweight(to_tsvector($8::regconfig, r.title), 'A') || setweight(to_tsvector($8::regconfig, coalesce(r.heading, '')), 'B')
           || to_tsvector($8::regconfig, r.content),
         ${vectorIndexedOf("$2::text")}, r.page
       FROM document CROSS JOIN jsonb_to_recordset($9::jsonb) AS r (chunk_index int, title text, heading text, content text, token_estimate int, embedding text, page int)
       RETURNING 1
     ), bumped AS (
       ${upsertRevisionsOf("SELECT $2::text WHERE EXISTS (SELECT 1 FROM document) AND (SELECT count(*) FROM added) >= 0")}
       RETURNING 1
     )
     SELECT EXISTS (SELECT 1 FROM document) AND (SELECT count(*) FROM bumped) >= 0 AS stored`,
    [
      document.id,
      document.agentId,
      content.title,
      content.contentHash,
      chunks.length,
      content.embedder,
      content.dimensions,
      content.textSearchConfig,
      JSON.stringify(rows),
      content.text ?? null,
      content.contentBytes ?? null,
      ...(validators ? [validators.etag, validators.lastModified] : []),
    ],
  );
  return result[0]?.stored === true;
}

/**
 * The agent's knowledge is now in another language: every chunk's search vector is made again with
 * `textSearchConfig`, as `replaceDocumentChunks` makes it (title, heading, content), so that questions,
 * stemmed with the agent's configuration, meet the knowledge's words. Embeddings are unchanged.
 */
export async function restemAgentChunks(tx: Queryable, agentId: string, textSearchConfig: string): Promise<void> {
  await tx.query(
    `UPDATE chunks SET search_vector = setweight(to_tsvector($2::regconfig, coalesce(title, '')), 'A')
       || setweight(to_tsvector($2::regconfig, coalesce(heading, '')), 'B') || to_tsvector($2::regconfig, content)
     WHERE agent_id = $1`,
    [agentId, textSearchConfig],
  );
  await bumpKnowledgeRevision(tx, agentId);
}

/** The page was fetched again and its content is unchanged: nothing is re-embedded (the answer's validators are kept when given). */
export async function markDocumentUnchanged(db: Queryable, documentId: number, validators?: DocumentValidators): Promise<void> {
  await db.query(
    `UPDATE documents SET status = 'indexed', error = NULL, indexed_at = now(), updated_at = now()${validators ? ", etag = $2, last_modified = $3" : ""}
     WHERE id = $1 AND status <> 'excluded'`,
    [documentId, ...(validators ? [validators.etag, validators.lastModified] : [])],
  );
}

/**
 * The page could not be indexed this time. A document that was indexed before keeps its chunks
 * (and its `indexed` status) and records the error; one never indexed becomes `failed`.
 */
export async function markDocumentFailed(db: Queryable, documentId: number, error: { code: string; message: string }): Promise<void> {
  await db.query(
    `UPDATE documents SET status = CASE WHEN chunk_count > 0 THEN 'indexed' ELSE 'failed' END, error = $2::jsonb, updated_at = now()
     WHERE id = $1 AND status <> 'excluded'`,
    [documentId, JSON.stringify(error)],
  );
}

export interface DocumentCounts {
  found: number;
  pending: number;
  indexed: number;
  failed: number;
}

export async function countSourceDocuments(db: Queryable, sourceId: string): Promise<DocumentCounts> {
  const { rows } = await db.query<DocumentCounts>(
    `SELECT count(*) FILTER (WHERE status <> 'excluded')::int AS found,
       count(*) FILTER (WHERE status = 'pending')::int AS pending,
       count(*) FILTER (WHERE status = 'indexed' AND error IS NULL)::int AS indexed,
       count(*) FILTER (WHERE status = 'failed' OR error IS NOT NULL)::int AS failed
     FROM documents WHERE source_id = $1`,
    [sourceId],
  );
  return rows[0]!;
}

/** Whether a page of the source is still pending (`documents_pending_idx`: no other document is read). */
export async function hasPendingDocuments(db: Queryable, sourceId: string): Promise<boolean> {
  const { rows } = await db.query<{ pending: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM documents WHERE source_id = $1 AND status = 'pending') AS pending`,
    [sourceId],
  );
  return rows[0]?.pending === true;
}

export async function listSourceDocumentIds(db: Queryable, sourceId: string): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(`SELECT id::int AS id FROM documents WHERE source_id = $1 ORDER BY id`, [sourceId]);
  return rows.map((row) => row.id);
}

/** Each source's page counts, for the sources given (one grouped read over documents_source_url_idx); a source without pages is absent. */
export async function countDocumentsBySource(db: Queryable, sourceIds: readonly string[]): Promise<Map<string, DocumentCounts>> {
  if (sourceIds.length === 0) return new Map();
  const { rows } = await db.query<DocumentCounts & { source_id: string }>(
    `SELECT source_id, count(*) FILTER (WHERE status <> 'excluded')::int AS found,
       count(*) FILTER (WHERE status = 'pending')::int AS pending,
       count(*) FILTER (WHERE status = 'indexed' AND error IS NULL)::int AS indexed,
       count(*) FILTER (WHERE status = 'failed' OR error IS NOT NULL)::int AS failed
     FROM documents WHERE source_id IN (SELECT jsonb_array_elements_text($1::jsonb)) GROUP BY source_id`,
    [JSON.stringify(sourceIds)],
  );
  return new Map(rows.map(({ source_id: sourceId, ...counts }) => [sourceId, counts]));
}

export interface FailedPage {
  url: string;
  error: { code: string; message: string };
  /** Indexed by an earlier sync: its chunks still answer. */
  indexedBefore: boolean;
}

/** The source's pages whose last attempt failed, by URL, at most `limit`. */
export async function listFailedPages(db: Queryable, sourceId: string, limit: number): Promise<FailedPage[]> {
  const { rows } = await db.query<{ url: string; error: { code: string; message: string }; chunk_count: number }>(
    `SELECT url, error, chunk_count FROM documents WHERE source_id = $1 AND error IS NOT NULL ORDER BY url LIMIT $2`,
    [sourceId, limit],
  );
  return rows.map((row) => ({ url: row.url, error: row.error, indexedBefore: row.chunk_count > 0 }));
}
