import type { Database } from "../db/database.js";
import { FetchError } from "../network/fetch-error.js";
import type { RevalidatedPage } from "./fetch/fetch-page.js";
import { deleteDocument, markDocumentUnchanged, type DocumentRecord } from "./document-repository.js";
import { indexDocumentContent, type IndexOutcome } from "./index-document.js";
import type { IngestPipeline } from "./ingest-pipeline.js";

/** What (re)reading one page did: indexed anew, unchanged (304, or the same content hash), or removed (404/410). */
export type RefreshOutcome = IndexOutcome | { kind: "not_modified" } | { kind: "removed"; status: number };

/** Answers that say the page is gone for good: its document and chunks are dropped. 5xx and network errors are not. */
const GONE_STATUSES = new Set([404, 410]);

/**
 * Fetches one page of a url or sitemap source and indexes it when it changed. A page indexed
 * before with the current embedder is asked for conditionally (`If-None-Match` with its ETag,
 * `If-Modified-Since` with its Last-Modified): a 304 costs no body, no extraction and no
 * embedding. A fetched page whose extracted content hash is unchanged is not re-embedded either
 * (indexDocumentContent). A page indexed before that now answers 404 or 410 is removed; any other
 * failure (and a 404 of a page never indexed) is thrown for the caller to retry or record (a page
 * indexed before keeps its chunks).
 */
export async function refreshPage(db: Database, pipeline: IngestPipeline, document: DocumentRecord): Promise<RefreshOutcome> {
  const activeEmbedder = await pipeline.embedders.activeId(db, document.workspaceId);
  const current = document.contentHash !== null && document.embedders.includes(activeEmbedder);
  let result: RevalidatedPage;
  try {
    result = await pipeline.crawler.revalidatePage(
      document.url,
      current ? { etag: document.etag, lastModified: document.lastModified } : { etag: null, lastModified: null },
    );
    pipeline.metrics.pageFetched(result.kind === "not_modified" ? "not_modified" : "ok");
  } catch (error) {
    pipeline.metrics.pageFetched(error instanceof FetchError ? error.code : "error");
    // A page indexed before that is now gone is removed; one that never answered (a broken link in
    // the sitemap on its first sync) stays listed as failed, with why, for the owner to see.
    const indexedBefore = document.contentHash !== null;
    if (indexedBefore && error instanceof FetchError && error.code === "http_status" && error.status !== undefined && GONE_STATUSES.has(error.status)) {
      await deleteDocument(db, document.id);
      return { kind: "removed", status: error.status };
    }
    throw error;
  }
  if (result.kind === "not_modified") {
    await markDocumentUnchanged(db, document.id);
    return { kind: "not_modified" };
  }
  const { page } = result;
  return indexDocumentContent(db, pipeline, document, { body: page.body, contentType: page.contentType, url: page.url }, { etag: page.etag, lastModified: page.lastModified });
}
