import { WORDPRESS_BATCH_MAX_POSTS } from "@frontdesk/contracts";
import type { IngestJobContext } from "../ingest/ingest-job-context.js";
import type { SourceRecord } from "../sources/sources.js";
import { refreshWordpressProgress } from "./index-wordpress-posts-job.js";
import { requeueAllSourceDocuments } from "../ingest/documents.js";
import { listPostDocumentIds } from "./post-index-repository.js";

/**
 * A re-sync of a `wordpress` source (the console's Re-sync, `index-source`): nothing is fetched;
 * every published post is indexed again from its stored HTML (an unchanged text with the same
 * embedder is not re-embedded), in jobs of at most 100 posts enqueued with the pending marks.
 */
export async function resyncWordpressSource(context: IngestJobContext, source: SourceRecord): Promise<void> {
  await context.db.transaction(async (tx) => {
    const documentIds = await listPostDocumentIds(tx, source.id);
    await requeueAllSourceDocuments(tx, source.id);
    for (let start = 0; start < documentIds.length; start += WORDPRESS_BATCH_MAX_POSTS) {
      await context.jobs.send("index-wordpress-posts", { sourceId: source.id, documentIds: documentIds.slice(start, start + WORDPRESS_BATCH_MAX_POSTS) }, tx);
    }
    await refreshWordpressProgress(tx, context.events, source.id);
  });
  context.onSourceChanged?.(source.id);
}
