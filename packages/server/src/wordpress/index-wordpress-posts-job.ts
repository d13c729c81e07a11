import type { Queryable } from "../db/database.js";
import { chunkEmbeddingText } from "../ingest/chunk/chunk-embedding-text.js";
import type { DocumentChunk } from "../ingest/chunk/document-chunk.js";
import { sha256Hex } from "../ingest/content-hash.js";
import { markDocumentFailed, type DocumentCounts } from "../ingest/documents.js";
import { isEmptyExtraction } from "../ingest/extract/extracted-document.js";
import type { IngestJobContext } from "../ingest/ingest-job-context.js";
import { IngestFailure, toIngestFailure } from "../ingest/ingest-failure.js";
import type { IngestPipeline } from "../ingest/ingest-pipeline.js";
import { embedMeasured } from "../ingest/measured-embedding.js";
import { reembedDocument } from "../ingest/reembed-document-job.js";
import { markDocumentsUnchanged, replaceChunksOfDocuments } from "../ingest/replace-chunks-of-documents.js";
import { textSearchConfigFor } from "../language/text-search-config.js";
import { refreshSourceProgress } from "../ingest/refresh-source-progress.js";
import type { FrontdeskEvents } from "../events/frontdesk-events.js";
import type { JobAttempt } from "../jobs/job-queue.js";
import { findSource, type SourceOutcome } from "../sources/sources.js";
import { findPostsToIndex, lockPostsOfDocuments, type PostToIndex } from "./post-index-repository.js";

/** A job indexes its posts this many at a time; the source's counts are written (and announced) after each slice. */
const POSTS_PER_SLICE = 25;

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (character) => `&#${character.charCodeAt(0)};`);

/** A post as a page for the extractor: its title as the page's, its HTML as the main content. */
export function postPage(post: { title: string; content: string }): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(post.title)}</title></head><body><main><article>${post.content}</article></main></body></html>`;
}

const wordpressOutcome = (counts: DocumentCounts): SourceOutcome =>
  counts.indexed > 0 || counts.found === 0
    ? { status: "indexed" }
    : { status: "failed", error: { code: "all_posts_failed", message: "No post of the site could be indexed; see each post's error." } };

/**
 * Writes the `wordpress` source's post counts into its config and settles it once no post is
 * pending (in the caller's transaction, with its webhook event): `indexed` when a post is (or none
 * is published), `failed` when every one failed.
 */
export async function refreshWordpressProgress(tx: Queryable, events: FrontdeskEvents, sourceId: string): Promise<DocumentCounts> {
  return (await refreshSourceProgress(tx, events, sourceId, wordpressOutcome)).counts;
}

const refreshInTransaction = (context: IngestJobContext, sourceId: string) => context.db.transaction((tx) => refreshWordpressProgress(tx, context.events, sourceId));

type Prepared = { post: PostToIndex; failure: IngestFailure } | { post: PostToIndex; title: string; text: string; textHash: string; chunks: DocumentChunk[] };

/** Extracts and chunks a post on the extraction workers; a failure is kept with the post. */
async function preparePost(pipeline: IngestPipeline, post: PostToIndex): Promise<Prepared> {
  try {
    const { document, chunks } = await pipeline.extraction.prepare({ body: postPage(post), contentType: "text/html", url: post.url, title: post.title });
    if (isEmptyExtraction(document) || chunks.length === 0) return { post, failure: new IngestFailure("empty_content", "The post has no readable text.") };
    return { post, title: document.title, text: document.text, textHash: await sha256Hex(`${document.title}\n\n${document.text}`), chunks };
  } catch (error) {
    return { post, failure: toIngestFailure(error) };
  }
}

/**
 * Indexes a slice of a push's posts: extraction on the workers (all of them in flight), one
 * embedding call for the posts whose text changed, then one transaction that locks the posts and
 * writes only those whose hash is still the one read: a post pushed again meanwhile has a newer job,
 * which writes its newer text (an older job never overwrites it).
 */
async function indexPosts(context: IngestJobContext, agentId: string, documentIds: readonly number[], attempt: JobAttempt): Promise<void> {
  const { db, pipeline } = context;
  const posts = await findPostsToIndex(db, documentIds);
  if (posts.length === 0) return;
  const prepared = await Promise.all(posts.map((post) => preparePost(pipeline, post)));
  const transient = prepared.find((entry): entry is Extract<Prepared, { failure: IngestFailure }> => "failure" in entry && entry.failure.transient);
  if (transient && !attempt.isLastAttempt) throw transient.failure;

  const failed = prepared.filter((entry): entry is Extract<Prepared, { failure: IngestFailure }> => "failure" in entry);
  const readable = prepared.filter((entry): entry is Extract<Prepared, { chunks: DocumentChunk[] }> => "chunks" in entry);
  const embedder = await pipeline.embedders.active(posts[0]!.workspaceId);
  const isUnchanged = (entry: (typeof readable)[number]) => entry.post.documentHash === entry.textHash && entry.post.embedders.includes(embedder.id);
  const unchanged = readable.filter(isUnchanged);
  const changed = readable.filter((entry) => !isUnchanged(entry));
  let vectors: Float32Array[] = [];
  let embeddingFailure: IngestFailure | null = null;
  try {
    vectors = changed.length === 0 ? [] : await embedMeasured(pipeline, embedder, changed.flatMap((entry) => entry.chunks.map(chunkEmbeddingText)));
  } catch (error) {
    embeddingFailure = toIngestFailure(error);
    if (embeddingFailure.transient && !attempt.isLastAttempt) throw embeddingFailure;
  }

  let next = 0;
  const written = changed.map((entry) => ({
    id: entry.post.documentId,
    title: entry.title,
    contentHash: entry.textHash,
    text: entry.text,
    contentBytes: Buffer.byteLength(entry.post.content, "utf8"),
    chunks: entry.chunks.map((chunk) => ({
      index: chunk.index,
      title: chunk.title,
      heading: chunk.heading,
      content: chunk.text,
      tokenEstimate: chunk.tokenEstimate,
      embedding: vectors[next++]!,
    })),
  }));
  await db.transaction(async (tx) => {
    const current = await lockPostsOfDocuments(tx, posts.map((post) => post.documentId));
    const stillCurrent = (post: PostToIndex) => current.get(post.documentId) === post.postHash;
    if (embeddingFailure === null) {
      const fresh = changed.filter((entry) => stillCurrent(entry.post)).map((entry) => entry.post.documentId);
      await replaceChunksOfDocuments(
        tx,
        agentId,
        { embedder: embedder.id, dimensions: embedder.dimensions, textSearchConfig: textSearchConfigFor(posts[0]!.languageDefault) },
        written.filter((document) => fresh.includes(document.id)),
      );
    }
    await markDocumentsUnchanged(tx, unchanged.filter((entry) => stillCurrent(entry.post)).map((entry) => entry.post.documentId));
    const failures = [...failed.map((entry) => ({ post: entry.post, failure: entry.failure })), ...(embeddingFailure ? changed.map((entry) => ({ post: entry.post, failure: embeddingFailure! })) : [])];
    for (const { post, failure } of failures) if (stillCurrent(post)) await markDocumentFailed(tx, post.documentId, failure.detail);
  });
  if (changed.length > 0 && embeddingFailure === null) {
    // The workspace switched embedders while these posts were embedded: their vectors are made again with the new one.
    if ((await pipeline.embedders.activeId(db, posts[0]!.workspaceId)) !== embedder.id) {
      for (const entry of changed) await reembedDocument(db, pipeline, entry.post.documentId);
    }
    context.onKnowledgeChanged?.(agentId);
  }
}

/** Job `index-wordpress-posts`: the posts of one push, one after the other, with the source's progress. */
export async function runIndexWordpressPostsJob(
  context: IngestJobContext,
  payload: { sourceId: string; documentIds: number[] },
  attempt: JobAttempt,
): Promise<void> {
  const source = await findSource(context.db, payload.sourceId);
  if (!source) return;
  const started = performance.now();
  for (let start = 0; start < payload.documentIds.length; start += POSTS_PER_SLICE) {
    await indexPosts(context, source.agentId, payload.documentIds.slice(start, start + POSTS_PER_SLICE), attempt);
    if (start + POSTS_PER_SLICE < payload.documentIds.length) {
      await refreshInTransaction(context, source.id);
      context.onSourceChanged?.(source.id);
    }
  }
  const counts = await refreshInTransaction(context, source.id);
  context.onSourceChanged?.(source.id);
  if (counts.pending === 0) {
    context.progress.sourceFinished(counts.indexed > 0 || counts.found === 0 ? "indexed" : "failed", {
      sourceId: source.id,
      kind: "wordpress",
      posts: counts.found,
      postsIndexed: counts.indexed,
      postsFailed: counts.failed,
      durationMs: Math.round(performance.now() - started),
    });
  }
}
