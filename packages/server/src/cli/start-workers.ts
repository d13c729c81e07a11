import { curatedAnswersFromFiles } from "../console/curated/curated-answers-from-files.js";
import type { Logger } from "pino";
import { observedJobQueue } from "../jobs/measured-job-handler.js";
import { createIngestPipeline } from "../ingest/ingest-pipeline.js";
import { registerIngestWorkers } from "../ingest/register-ingest-workers.js";
import { registerIngestMetrics } from "../observability/ingest-metrics.js";
import type { Services } from "../services.js";
import { SourceUpdatePublisher } from "../console/knowledge/source-update-publisher.js";
import { registerRetentionWorker } from "../privacy/register-retention-worker.js";
import { registerResyncScheduler } from "../sources/register-resync-scheduler.js";
import { registerWebhookWorkers } from "../webhooks/register-webhook-workers.js";
import { registerMailWorkers } from "../mail/register-mail-workers.js";
import { registerPushWorkers } from "../push/register-push-workers.js";
import { wordpressSourceKind } from "../wordpress/wordpress-source-kind.js";
import { registerAnswerTestWorkers } from "../answer-tests/register-answer-test-workers.js";
import { registerSnoozeWorker } from "../conversations/register-snooze-worker.js";

/** Starts this process's background workers; close() them on shutdown (before the store closes). */
export async function startWorkers(services: Services, logger: Logger): Promise<{ close(): Promise<void> }> {
  // `serve`'s bus reaches the realtime server; a `worker` process's does not (consoles poll its sources' progress).
  const sourceUpdates = new SourceUpdatePublisher(services.db, services.bus, (error) => logger.warn({ err: error }, "source update not announced"));
  const metrics = registerIngestMetrics(services.metrics);
  const pipeline = createIngestPipeline(services.config, services.embedder, { metrics, embedders: services.embedders });
  const workers = await registerIngestWorkers(
    {
      db: services.db,
      jobs: services.jobs,
      events: services.events,
      pipeline,
      logger: logger.child({ component: "ingest" }),
      fileQuestions: curatedAnswersFromFiles,
      onKnowledgeChanged: (agentId) => services.lexical.statistics.invalidate(agentId),
      onSourceChanged: (sourceId, progress) => void sourceUpdates.sourceChanged(sourceId, progress),
    },
    services.config.workers.concurrency,
    { vectorIndex: services.config.ingest.vectorIndex, sourceKinds: [wordpressSourceKind], workspaceEmbedders: services.embedders },
  );
  // The other workers' attempts are counted in /metrics too (ingestion's handlers count their own).
  const observed = { ...services, jobs: observedJobQueue(services.jobs, metrics) };
  await registerRetentionWorker(observed, logger.child({ component: "retention" }));
  await registerResyncScheduler(observed, logger.child({ component: "resync" }));
  const webhooks = await registerWebhookWorkers(observed, logger.child({ component: "webhooks" }));
  const mail = await registerMailWorkers(observed, logger.child({ component: "mail" }));
  const push = await registerPushWorkers(observed, logger.child({ component: "push" }));
  const answerTests = await registerAnswerTestWorkers(observed, logger.child({ component: "answer-tests" }));
  const snoozes = await registerSnoozeWorker(observed, logger.child({ component: "snooze" }));
  logger.info({ concurrency: services.config.workers.concurrency, embedder: services.embedder.id }, "workers started");
  return {
    async close() {
      await workers.close();
      await pipeline.close();
      await webhooks.close();
      await mail.close();
      await push.close();
      await answerTests.close();
      await snoozes.close();
    },
  };
}
