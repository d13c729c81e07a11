import type { JobAttempt } from "../jobs/job-queue.js";
import { findDocument, markDocumentFailed } from "./document-repository.js";
import { toIngestFailure } from "./ingest-failure.js";
import type { IngestJobContext } from "./ingest-job-context.js";
import { refreshPage } from "./refresh-page.js";
import { refreshSitemapProgress } from "./refresh-sitemap-progress.js";

/**
 * Job `index-page`: fetches one page of a sitemap source (conditionally when it was indexed
 * before), indexes it when it changed or removes it when it is gone (404/410), then updates the
 * source's progress.
 */
export async function runIndexPageJob(
  context: IngestJobContext,
  payload: { sourceId: string; documentId: number },
  attempt: JobAttempt,
): Promise<void> {
  const { db, pipeline } = context;
  const document = await findDocument(db, payload.documentId);
  if (!document) return;
  // Its owner left it out (after this job was queued): nothing is fetched.
  if (document.status === "excluded") {
    context.progress.sitemapProgress(payload.sourceId, await refreshSitemapProgress(db, context.events, payload.sourceId, context.sitemapCounts));
    return;
  }
  try {
    const outcome = await refreshPage(db, pipeline, document);
    if (outcome.kind === "indexed" || (outcome.kind === "removed" && document.contentHash !== null)) context.onKnowledgeChanged?.(document.agentId);
  } catch (error) {
    const failure = toIngestFailure(error);
    if (failure.transient && !attempt.isLastAttempt) throw failure;
    await markDocumentFailed(db, document.id, failure.detail);
  }
  const progress = await refreshSitemapProgress(db, context.events, payload.sourceId, context.sitemapCounts);
  context.progress.sitemapProgress(payload.sourceId, progress);
  context.onSourceChanged?.(payload.sourceId, { syncing: progress.state === "pending" });
}
