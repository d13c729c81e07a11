import { measuredJobHandler } from "../jobs/measured-job-handler.js";
import { runIndexPageJob } from "./index-page-job.js";
import { runIndexSourceJob, type IngestJobContext } from "./index-source-job.js";
import { IngestProgressLog, type IngestProgressLogOptions } from "./ingest-progress-log.js";
import { PlannerStatistics } from "./planner-statistics.js";
import { runReembedDocumentJob } from "./reembed-document-job.js";
import { runIndexWordpressPostsJob } from "../wordpress/index-wordpress-posts-job.js";

export interface IngestWorkersOptions {
  /** The cadence of a sitemap's progress lines. */
  progress?: IngestProgressLogOptions;
}

/** Starts the indexing workers of this process; close() stops their background upkeep (after the queue stopped). */
export async function registerIngestWorkers(
  base: Omit<IngestJobContext, "progress">,
  concurrency: number,
  options: IngestWorkersOptions = {},
): Promise<{ close(): Promise<void> }> {
  const planner = new PlannerStatistics(base.db, (error) => base.logger.warn({ err: error }, "ANALYZE failed"));
  const context: IngestJobContext = {
    ...base,
    progress: new IngestProgressLog(base.logger, options.progress),
    onKnowledgeChanged: (agentId) => {
      base.onKnowledgeChanged?.(agentId);
      planner.knowledgeChanged();
    },
  };
  const { jobs, pipeline } = context;
  await jobs.work("index-source", concurrency, measuredJobHandler(pipeline.metrics, "index-source", (payload, attempt) => runIndexSourceJob(context, payload.sourceId, attempt)));
  await jobs.work("index-page", concurrency, measuredJobHandler(pipeline.metrics, "index-page", (payload, attempt) => runIndexPageJob(context, payload, attempt)));
  await jobs.work("index-wordpress-posts", concurrency, measuredJobHandler(pipeline.metrics, "index-wordpress-posts", (payload, attempt) => runIndexWordpressPostsJob(context, payload, attempt)));
  await jobs.work("reembed-document", 1, measuredJobHandler(pipeline.metrics, "reembed-document", (payload) => runReembedDocumentJob(context, payload.documentId)));
  return { close: () => planner.close() };
}
