import type { JobAttempt } from "../jobs/job-queue.js";
import type { IngestJobContext } from "./ingest-job-context.js";
import {
  findSource,
  findSourceText,
  patchSourceConfig,
  urlPatternFilter,
  urlPatternsOf,
  type SourceOutcome,
  type SourceRecord,
} from "../sources/sources.js";
import { countSourceDocuments, deleteDocumentsNotIn, findDocument, markDocumentFailed, upsertDocuments, upsertDocumentsToIndex } from "./document-repository.js";
import { indexDocumentContent, type IndexOutcome } from "./index-document.js";
import { indexFileSource } from "./index-file-source.js";
import { indexPageJobs } from "./index-page-job.js";
import { IngestFailure, toIngestFailure } from "./ingest-failure.js";
import type { IngestPipeline } from "./ingest-pipeline.js";
import type { IngestProgressLog } from "./ingest-progress-log.js";
import { refreshPage } from "./refresh-page.js";
import { refreshSitemapProgress, type SitemapCountsThrottle } from "./refresh-sitemap-progress.js";
import { settleSource } from "./settle-source.js";


/** The URL a text source's document is cited by. */
export function textDocumentUrl(source: SourceRecord): string {
  const sourceUrl = source.config.source_url;
  return typeof sourceUrl === "string" && sourceUrl !== "" ? sourceUrl : `urn:frontdesk:source:${source.id}`;
}

async function indexSingleDocument(context: IngestJobContext, source: SourceRecord): Promise<IndexOutcome & { curatedAnswers?: number }> {
  const { db, pipeline } = context;
  if (source.kind === "file") return indexFileSource(context, source);
  if (source.kind === "text") {
    const [documentId] = await upsertDocuments(db, source, [textDocumentUrl(source)]);
    const content = await findSourceText(db, source.id);
    if (content === null) throw new IngestFailure("empty_content", "The pushed text is missing.");
    const title = typeof source.config.title === "string" ? source.config.title : undefined;
    const document = await findDocument(db, documentId!);
    if (!document) throw new IngestFailure("document_deleted", "The document was deleted while it was being indexed.");
    if (document.status === "excluded") return { kind: "unchanged" };
    return indexDocumentContent(db, pipeline, document, { body: content, contentType: "text/plain", url: textDocumentUrl(source), ...(title ? { title } : {}) });
  }
  const [documentId] = await upsertDocuments(db, source, [source.targetUrl!]);
  try {
    const document = await findDocument(db, documentId!);
    if (!document) throw new IngestFailure("document_deleted", "The page was deleted while it was being indexed.");
    // Its owner left it out: a re-sync does not fetch it.
    if (document.status === "excluded") return { kind: "unchanged" };
    const outcome = await refreshPage(db, pipeline, document);
    if (outcome.kind === "removed") throw new IngestFailure("http_status", `${document.url} answered HTTP ${outcome.status}: the page is gone, its passages were removed`);
    return outcome.kind === "not_modified" ? { kind: "unchanged" } : outcome;
  } catch (error) {
    const failure = toIngestFailure(error);
    if (!failure.transient) await markDocumentFailed(db, documentId!, failure.detail);
    throw failure;
  }
}

/**
 * Reads the sitemap, keeps the pages its URL patterns let through, reconciles its documents (pages
 * no longer listed or let through are dropped with their chunks) and fans out `index-page` jobs of
 * a few pages each (indexPageJobs), but for the pages its owner excluded.
 */
async function startSitemapSync(context: IngestJobContext, source: SourceRecord): Promise<void> {
  const { db, jobs, pipeline } = context;
  const discovery = await pipeline.crawler.discoverSitemapUrls(source.targetUrl!, { maxPages: pipeline.sitemapMaxPages });
  if (discovery.urls.length === 0) throw new IngestFailure("empty_sitemap", "The sitemap lists no pages on its own host.");
  const urls = discovery.urls.filter(urlPatternFilter(urlPatternsOf(source.config)));
  if (urls.length === 0) throw new IngestFailure("no_page_matches", "No page of the sitemap matches the source's URL patterns.");
  // Before the page jobs exist, so that none of them can report progress ahead of this line.
  context.progress.sitemapRead(source.id, {
    pagesFound: urls.length,
    truncated: discovery.truncated,
    skippedForeignHost: discovery.skippedForeignHost,
  });
  await db.transaction(async (tx) => {
    if ((await deleteDocumentsNotIn(tx, source.id, urls)) > 0) context.onKnowledgeChanged?.(source.agentId);
    const documentIds = await upsertDocumentsToIndex(tx, source, urls);
    await patchSourceConfig(tx, source.id, {
      pages_found: urls.length,
      pages_indexed: 0,
      pages_failed: 0,
      truncated: discovery.truncated,
      skipped_foreign_host: discovery.skippedForeignHost,
    });
    await jobs.sendMany("index-page", indexPageJobs(source.id, documentIds), tx);
  });
}

/** Settles a url or text source (its one page's counts in its webhook event). */
const settle = (context: IngestJobContext, sourceId: string, outcome: SourceOutcome, configPatch: Record<string, unknown> = {}) =>
  context.db.transaction(async (tx) => settleSource(tx, context.events, sourceId, outcome, await countSourceDocuments(tx, sourceId), configPatch));

/** Job `index-source`: indexes a url or text source, or starts a sitemap's fan-out. */
export async function runIndexSourceJob(context: IngestJobContext, sourceId: string, attempt: JobAttempt): Promise<void> {
  const source = await findSource(context.db, sourceId);
  if (!source) return;
  const started = performance.now();
  context.progress.sourceStarted(source);
  context.onSourceChanged?.(source.id);
  try {
    // A kind that plugs into ingestion (the WordPress sync) owns its whole sync.
    const plugin = context.sourceKinds?.get(source.kind);
    if (plugin) {
      await plugin.sync(context, source);
      return;
    }
    if (source.kind === "sitemap") {
      await startSitemapSync(context, source);
      context.progress.sitemapProgress(source.id, await refreshSitemapProgress(context.db, context.events, source.id));
      context.onSourceChanged?.(source.id);
      return;
    }
    const outcome = await indexSingleDocument(context, source);
    await settle(context, source.id, { status: "indexed" }, outcome.curatedAnswers === undefined ? {} : { curated_answers: outcome.curatedAnswers });
    context.onKnowledgeChanged?.(source.agentId);
    context.onSourceChanged?.(source.id);
    context.progress.sourceFinished("indexed", {
      sourceId,
      kind: source.kind,
      chunks: outcome.kind === "indexed" ? outcome.chunks : undefined,
      unchanged: outcome.kind === "unchanged",
      durationMs: Math.round(performance.now() - started),
    });
  } catch (error) {
    const failure = toIngestFailure(error);
    if (failure.transient && !attempt.isLastAttempt) {
      context.logger.warn({ sourceId, code: failure.code, err: failure.message }, "indexing failed; will retry");
      throw failure;
    }
    await settle(context, source.id, { status: "failed", error: failure.detail });
    context.onSourceChanged?.(source.id);
    context.progress.sourceFinished("failed", { sourceId, kind: source.kind, code: failure.code, message: failure.message });
  }
}
