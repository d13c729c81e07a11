import type { Logger } from "pino";
import { createIngestPipeline, type IngestPipeline } from "../ingest/ingest-pipeline.js";
import { registerIngestWorkers } from "../ingest/register-ingest-workers.js";
import type { Services } from "../services.js";

/** Starts this process's background workers; returns the pipeline to close on shutdown. */
export async function startWorkers(services: Services, logger: Logger): Promise<IngestPipeline> {
  const pipeline = createIngestPipeline(services.config, services.embedder);
  await registerIngestWorkers(
    {
      db: services.db,
      jobs: services.jobs,
      pipeline,
      logger: logger.child({ component: "ingest" }),
      onKnowledgeChanged: (agentId) => services.lexemeStatistics.invalidate(agentId),
    },
    services.config.workers.concurrency,
  );
  logger.info({ concurrency: services.config.workers.concurrency, embedder: services.embedder.id }, "workers started");
  return pipeline;
}
