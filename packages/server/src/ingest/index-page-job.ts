import type { JobAttempt } from "../jobs/job-queue.js";
import { findDocument, markDocumentFailed } from "./document-repository.js";
import { indexDocumentContent } from "./index-document.js";
import { toIngestFailure } from "./ingest-failure.js";
import type { IngestJobContext } from "./index-source-job.js";
import { fetchPageMeasured } from "./measured-fetch.js";
import { refreshSitemapProgress } from "./refresh-sitemap-progress.js";

/** Job `index-page`: fetches and indexes one page of a sitemap source, then updates the source's progress. */
export async function runIndexPageJob(
  context: IngestJobContext,
  payload: { sourceId: string; documentId: number },
  attempt: JobAttempt,
): Promise<void> {
  const { db, pipeline } = context;
  const document = await findDocument(db, payload.documentId);
  if (!document) return;
  try {
    const page = await fetchPageMeasured(pipeline, document.url);
    const outcome = await indexDocumentContent(db, pipeline, document.id, { body: page.body, contentType: page.contentType, url: page.url });
    if (outcome.kind === "indexed") context.onKnowledgeChanged?.(document.agentId);
  } catch (error) {
    const failure = toIngestFailure(error);
    if (failure.transient && !attempt.isLastAttempt) throw failure;
    await markDocumentFailed(db, document.id, failure.detail);
  }
  context.progress.sitemapProgress(payload.sourceId, await refreshSitemapProgress(db, payload.sourceId));
  context.onSourceChanged?.(payload.sourceId);
}
