import { runIndexPageJob } from "./index-page-job.js";
import { runIndexSourceJob, type IngestJobContext } from "./index-source-job.js";
import { runReembedDocumentJob } from "./reembed-document-job.js";

/** Starts the indexing workers of this process. */
export async function registerIngestWorkers(context: IngestJobContext, concurrency: number): Promise<void> {
  await context.jobs.work("index-source", concurrency, (payload, attempt) => runIndexSourceJob(context, payload.sourceId, attempt));
  await context.jobs.work("index-page", concurrency, (payload, attempt) => runIndexPageJob(context, payload, attempt));
  await context.jobs.work("reembed-document", 1, (payload) => runReembedDocumentJob(context, payload.documentId));
}
