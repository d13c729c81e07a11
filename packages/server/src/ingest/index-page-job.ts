import type { JobAttempt } from "../jobs/job-queue.js";
import { findDocument, markDocumentFailed } from "./document-repository.js";
import { toIngestFailure, type IngestFailure } from "./ingest-failure.js";
import type { IngestJobContext } from "./ingest-job-context.js";
import { refreshPage } from "./refresh-page.js";
import { refreshSitemapProgress } from "./refresh-sitemap-progress.js";

/** Pages of a sitemap one `index-page` job reads at most (the catalog's payload allows 100). */
export const MAX_PAGES_PER_JOB = 50;

/**
 * Pages per `index-page` job for a sitemap of `pages` pages: one job per page made the queue as long
 * as the sitemap, and pg-boss's fetch reads every queued job of the queue to pick the oldest (its
 * index is on `(name, start_after)`, its order `priority, created_on`), so each fetch cost grew with
 * the sitemap and a 100,000-page sitemap spent most of its time there. A small sitemap keeps about
 * 200 jobs, so that every worker has some to take until the end.
 */
export function pagesPerJob(pages: number): number {
  return Math.min(MAX_PAGES_PER_JOB, Math.max(1, Math.ceil(pages / 200)));
}

/** The payloads of a sitemap's `index-page` jobs: its pages to index, `pagesPerJob` of them a job, in their order. */
export function indexPageJobs(sourceId: string, documentIds: readonly number[]): { sourceId: string; documentIds: number[] }[] {
  const size = pagesPerJob(documentIds.length);
  const jobs: { sourceId: string; documentIds: number[] }[] = [];
  for (let start = 0; start < documentIds.length; start += size) jobs.push({ sourceId, documentIds: documentIds.slice(start, start + size) });
  return jobs;
}

/**
 * Reads one pending page: fetched (conditionally when it was indexed before), indexed when it
 * changed or removed when it is gone (404/410). A transient failure is returned for the job to be
 * retried (the page stays pending); any other, or one on the last attempt, marks the page failed.
 */
async function indexPendingPage(context: IngestJobContext, documentId: number, attempt: JobAttempt): Promise<IngestFailure | null> {
  const { db, pipeline } = context;
  const document = await findDocument(db, documentId);
  // Deleted, excluded by its owner after this job was queued, or read by an earlier attempt of this job: nothing to fetch.
  if (!document || document.status !== "pending") return null;
  try {
    const outcome = await refreshPage(db, pipeline, document);
    if (outcome.kind === "indexed" || (outcome.kind === "removed" && document.contentHash !== null)) context.onKnowledgeChanged?.(document.agentId);
  } catch (error) {
    const failure = toIngestFailure(error);
    if (failure.transient && !attempt.isLastAttempt) return failure;
    await markDocumentFailed(db, document.id, failure.detail);
  }
  return null;
}

/**
 * Job `index-page`: reads some pages of a sitemap source, one after the other (`documentId`: one
 * page, as jobs queued by an earlier version and the Include switch carry), then updates the
 * source's progress once. Only pages still pending are read, so a retried job reads again only
 * those a transient failure left (it is retried when one did, after the others were read).
 */
export async function runIndexPageJob(
  context: IngestJobContext,
  payload: { sourceId: string; documentId?: number | undefined; documentIds?: number[] | undefined },
  attempt: JobAttempt,
): Promise<void> {
  const documentIds = payload.documentIds ?? (payload.documentId === undefined ? [] : [payload.documentId]);
  let retry: IngestFailure | null = null;
  for (const documentId of documentIds) retry = (await indexPendingPage(context, documentId, attempt)) ?? retry;
  const progress = await refreshSitemapProgress(context.db, context.events, payload.sourceId, context.sitemapCounts);
  context.progress.sitemapProgress(payload.sourceId, progress);
  context.onSourceChanged?.(payload.sourceId, { syncing: progress.state === "pending" });
  if (retry) throw retry;
}
