import { measuredJobHandler } from "../jobs/measured-job-handler.js";
import { SitemapCountsThrottle } from "./refresh-sitemap-progress.js";
import { runIndexPageJob } from "./index-page-job.js";
import type { IngestJobContext, SourceKindPlugin } from "./ingest-job-context.js";
import { runIndexSourceJob } from "./index-source-job.js";
import { IngestProgressLog, type IngestProgressLogOptions } from "./ingest-progress-log.js";
import { PlannerStatistics } from "./planner-statistics.js";
import { VectorIndexUpkeep } from "./vector-index-upkeep.js";
import type { VectorIndexOptions } from "./index-agent-vectors.js";
import { runReembedDocumentJob } from "./reembed-document-job.js";
import { registerReembeddingWorkers } from "./embedding-generations/register-reembedding-workers.js";
import type { WorkspaceEmbedders } from "./embedding-generations/workspace-embedders.js";

export interface IngestWorkersOptions {
  /** The cadence of a sitemap's progress lines. */
  progress?: IngestProgressLogOptions;
  /** When agents' vectors enter the shared HNSW index, and which get one of their own (FRONTDESK_VECTOR_INDEX_*; see index-agent-vectors.ts). */
  vectorIndex: VectorIndexOptions;
  /** Source kinds that plug into ingestion (the composition root passes the WordPress sync's). */
  sourceKinds?: readonly SourceKindPlugin[];
  /** Workspaces' own embedders: their re-embedding jobs run here (absent where workspaces choose none). */
  workspaceEmbedders?: WorkspaceEmbedders;
}

/** Starts the indexing workers of this process; close() stops their background upkeep (after the queue stopped). */
export async function registerIngestWorkers(
  base: Omit<IngestJobContext, "progress" | "sourceKinds">,
  concurrency: number,
  options: IngestWorkersOptions,
): Promise<{ close(): Promise<void> }> {
  const planner = new PlannerStatistics(base.db, (error) => base.logger.warn({ err: error }, "ANALYZE failed"));
  const vectorIndex = new VectorIndexUpkeep(
    base.db,
    options.vectorIndex,
    (error) => base.logger.warn({ err: error }, "indexing vectors failed"),
    (agentId, indexing) => base.logger.info({ agentId, promoted: indexing.promoted, chunks: indexing.flagged, ownIndex: indexing.own }, "vectors indexed"),
  );
  await vectorIndex.resume();
  const context: IngestJobContext = {
    ...base,
    progress: new IngestProgressLog(base.logger, options.progress),
    sitemapCounts: new SitemapCountsThrottle(),
    sourceKinds: new Map((options.sourceKinds ?? []).map((plugin) => [plugin.kind, plugin])),
    onKnowledgeChanged: (agentId) => {
      base.onKnowledgeChanged?.(agentId);
      planner.knowledgeChanged();
      vectorIndex.knowledgeChanged(agentId);
    },
  };
  const { jobs, pipeline } = context;
  await jobs.work("index-source", concurrency, measuredJobHandler(pipeline.metrics, "index-source", (payload, attempt) => runIndexSourceJob(context, payload.sourceId, attempt)));
  await jobs.work("index-page", concurrency, measuredJobHandler(pipeline.metrics, "index-page", (payload, attempt) => runIndexPageJob(context, payload, attempt)));
  for (const plugin of options.sourceKinds ?? []) await plugin.registerWorkers(context, concurrency);
  await jobs.work("reembed-document", 1, measuredJobHandler(pipeline.metrics, "reembed-document", (payload) => runReembedDocumentJob(context, payload.documentId)));
  if (options.workspaceEmbedders) {
    await registerReembeddingWorkers({ db: context.db, jobs, pipeline, embedders: options.workspaceEmbedders, logger: base.logger, onKnowledgeChanged: context.onKnowledgeChanged! });
  }
  return {
    async close() {
      await Promise.all([planner.close(), vectorIndex.close()]);
    },
  };
}
