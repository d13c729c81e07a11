import type { Queryable } from "../db/database.js";
import { isoOrNull } from "../db/timestamps.js";
import type { DocumentStatus } from "./document-repository.js";

/**
 * The reads that show a source's documents to its owner (issue 32 §3): what was indexed, from which
 * page, and the text and chunks it became. Every read is scoped by the source (the caller has
 * checked the source belongs to the workspace) and goes through an index: the listing through
 * documents_source_order_idx in id order, one document's chunks through chunks_document_idx.
 */

export interface SourceDocumentSummary {
  id: number;
  url: string;
  title: string | null;
  status: DocumentStatus;
  /** Bytes of the content the last indexing read (the page's body, the text, the post's HTML). */
  contentBytes: number | null;
  /** When the page was last read successfully (indexed, or found unchanged). */
  lastFetchedAt: string | null;
  chunkCount: number;
  error: { code: string; message: string } | null;
}

export interface DocumentChunkView {
  index: number;
  heading: string | null;
  content: string;
  tokenEstimate: number;
}

export interface SourceDocumentDetail extends SourceDocumentSummary {
  /** The text the last indexing extracted; null before the first indexing. */
  extractedText: string | null;
  chunks: DocumentChunkView[];
}

interface SummaryRow {
  id: number;
  url: string;
  title: string | null;
  status: DocumentStatus;
  content_bytes: number | null;
  indexed_at: Date | string | null;
  chunk_count: number;
  error: { code: string; message: string } | null;
}

const SUMMARY_COLUMNS = "id::int AS id, url, title, status, content_bytes, indexed_at, chunk_count, error";

const toSummary = (row: SummaryRow): SourceDocumentSummary => ({
  id: row.id,
  url: row.url,
  title: row.title,
  status: row.status,
  contentBytes: row.content_bytes,
  lastFetchedAt: isoOrNull(row.indexed_at),
  chunkCount: row.chunk_count,
  error: row.error,
});

/** A page of the source's documents in id order (the order they were found), after `afterId` when given. */
export async function listSourceDocuments(db: Queryable, sourceId: string, page: { limit: number; afterId: number | null }): Promise<SourceDocumentSummary[]> {
  const { rows } = await db.query<SummaryRow>(
    `SELECT ${SUMMARY_COLUMNS} FROM documents WHERE source_id = $1 AND id > $2 ORDER BY documents.id LIMIT $3`,
    [sourceId, page.afterId ?? 0, page.limit],
  );
  return rows.map(toSummary);
}

/** One document of the source with its extracted text and its chunks in order; null when the source has no such document. */
export async function findSourceDocument(db: Queryable, sourceId: string, documentId: number): Promise<SourceDocumentDetail | null> {
  const { rows } = await db.query<SummaryRow & { extracted_text: string | null }>(
    `SELECT ${SUMMARY_COLUMNS}, extracted_text FROM documents WHERE id = $1 AND source_id = $2`,
    [documentId, sourceId],
  );
  const row = rows[0];
  if (!row) return null;
  const chunks = await db.query<{ chunk_index: number; heading: string | null; content: string; token_estimate: number }>(
    `SELECT chunk_index, heading, content, token_estimate FROM chunks WHERE document_id = $1 ORDER BY chunk_index`,
    [documentId],
  );
  return {
    ...toSummary(row),
    extractedText: row.extracted_text,
    chunks: chunks.rows.map((chunk) => ({ index: chunk.chunk_index, heading: chunk.heading, content: chunk.content, tokenEstimate: chunk.token_estimate })),
  };
}

/** The source's documents' ids and URLs (documents_source_order_idx), for rules that decide by URL which pages stay. */
export async function listSourceDocumentUrls(db: Queryable, sourceId: string): Promise<{ id: number; url: string }[]> {
  const { rows } = await db.query<{ id: number; url: string }>(`SELECT id::int AS id, url FROM documents WHERE source_id = $1 ORDER BY documents.id`, [sourceId]);
  return rows;
}
