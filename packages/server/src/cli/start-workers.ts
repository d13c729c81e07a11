import type { Logger } from "pino";
import { createIngestPipeline } from "../ingest/ingest-pipeline.js";
import { registerIngestWorkers } from "../ingest/register-ingest-workers.js";
import { registerIngestMetrics } from "../observability/ingest-metrics.js";
import type { Services } from "../services.js";

/** Starts this process's background workers; close() them on shutdown (before the store closes). */
export async function startWorkers(services: Services, logger: Logger): Promise<{ close(): Promise<void> }> {
  const pipeline = createIngestPipeline(services.config, services.embedder, { metrics: registerIngestMetrics(services.metrics) });
  const workers = await registerIngestWorkers(
    {
      db: services.db,
      jobs: services.jobs,
      pipeline,
      logger: logger.child({ component: "ingest" }),
      onKnowledgeChanged: (agentId) => services.lexical.statistics.invalidate(agentId),
    },
    services.config.workers.concurrency,
  );
  logger.info({ concurrency: services.config.workers.concurrency, embedder: services.embedder.id }, "workers started");
  return {
    async close() {
      await workers.close();
      await pipeline.close();
    },
  };
}
