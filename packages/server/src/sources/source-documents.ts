import { DOCUMENT_PAGE_DEFAULT, type SourceDocument, type SourceDocumentDetail } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { AppError } from "../http/app-error.js";
import { findSourceDocument, listSourceDocuments, type SourceDocumentDetail as DocumentDetail, type SourceDocumentSummary } from "../ingest/documents.js";
import { decodeCursor, encodeCursor } from "../paging/page-cursor.js";
import { findWorkspaceSource } from "./source-repository.js";

/**
 * A source's documents as the Sources API and the console show them (issue 32 §3): the source is
 * looked up in the caller's workspace first (another workspace's is a 404), then ingest/ reads its
 * documents.
 */

export const documentNotFound = () => new AppError("document_not_found", "No document with this id in the source.");

export function presentSourceDocument(document: SourceDocumentSummary): SourceDocument {
  return {
    id: document.id,
    url: document.url,
    title: document.title,
    status: document.status,
    bytes: document.contentBytes,
    last_fetched_at: document.lastFetchedAt,
    chunk_count: document.chunkCount,
    error: document.error,
  };
}

export function presentSourceDocumentDetail(document: DocumentDetail): SourceDocumentDetail {
  return {
    ...presentSourceDocument(document),
    text: document.extractedText,
    chunks: document.chunks.map((chunk) => ({ index: chunk.index, heading: chunk.heading, content: chunk.content, token_estimate: chunk.tokenEstimate })),
  };
}

/** A page of the workspace source's documents in the order they were found; `notFound` when the workspace has no such source. */
export async function listWorkspaceSourceDocuments(
  db: Queryable,
  workspaceId: string,
  sourceId: string,
  query: { cursor?: string | undefined; limit?: number | undefined },
  notFound: () => AppError,
): Promise<{ data: SourceDocument[]; next_cursor: string | null }> {
  const source = await findWorkspaceSource(db, workspaceId, sourceId);
  if (!source) throw notFound();
  const limit = query.limit ?? DOCUMENT_PAGE_DEFAULT;
  const afterId = query.cursor ? Number(decodeCursor(query.cursor, ["id"] as const)[0]) : null;
  if (afterId !== null && !Number.isSafeInteger(afterId)) {
    throw new AppError("validation_failed", "The request is invalid.", { "querystring.cursor": ["is not a cursor of this list"] });
  }
  const rows = await listSourceDocuments(db, source.id, { limit: limit + 1, afterId });
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return { data: shown.map(presentSourceDocument), next_cursor: rows.length > limit && last ? encodeCursor([String(last.id)]) : null };
}

/** One document of the workspace's source with its extracted text and chunks. */
export async function showWorkspaceSourceDocument(
  db: Queryable,
  workspaceId: string,
  sourceId: string,
  documentId: number,
  notFound: () => AppError,
): Promise<SourceDocumentDetail> {
  const source = await findWorkspaceSource(db, workspaceId, sourceId);
  if (!source) throw notFound();
  const document = await findSourceDocument(db, source.id, documentId);
  if (!document) throw documentNotFound();
  return presentSourceDocumentDetail(document);
}
