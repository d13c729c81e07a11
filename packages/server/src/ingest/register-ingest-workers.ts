import { runIndexPageJob } from "./index-page-job.js";
import { runIndexSourceJob, type IngestJobContext } from "./index-source-job.js";
import { PlannerStatistics } from "./planner-statistics.js";
import { runReembedDocumentJob } from "./reembed-document-job.js";

/** Starts the indexing workers of this process; close() stops their background upkeep (after the queue stopped). */
export async function registerIngestWorkers(base: IngestJobContext, concurrency: number): Promise<{ close(): Promise<void> }> {
  const planner = new PlannerStatistics(base.db, (error) => base.logger.warn({ err: error }, "ANALYZE failed"));
  const context: IngestJobContext = {
    ...base,
    onKnowledgeChanged: (agentId) => {
      base.onKnowledgeChanged?.(agentId);
      planner.knowledgeChanged();
    },
  };
  await context.jobs.work("index-source", concurrency, (payload, attempt) => runIndexSourceJob(context, payload.sourceId, attempt));
  await context.jobs.work("index-page", concurrency, (payload, attempt) => runIndexPageJob(context, payload, attempt));
  await context.jobs.work("reembed-document", 1, (payload) => runReembedDocumentJob(context, payload.documentId));
  return { close: () => planner.close() };
}
