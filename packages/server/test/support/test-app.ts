import { curatedAnswersFromFiles } from "../../src/console/curated/curated-answers-from-files.js";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/app.js";
import { SessionTokens } from "../../src/auth/session-token.js";
import { ResumeTokens } from "../../src/auth/resume-token.js";
import { AttachmentLinks } from "../../src/auth/attachment-links.js";
import { loadConfig, type Config } from "../../src/config/config.js";
import { createInProcessEventBus, type BusEvent, type EventBus } from "../../src/realtime/event-bus.js";
import { createRealtime } from "../../src/realtime/create-realtime.js";
import { createRateLimiter } from "../../src/ratelimit/flexible-rate-limiter.js";
import { secretBoxesOf } from "../../src/auth/secret-box.js";
import type { Services } from "../../src/services.js";
import { HashingEmbedder } from "../../src/embeddings/hashing-embedder.js";
import { TEST_JOB_RETRY } from "./store-templates.js";
import { createAnswerGenerator } from "../../src/answering/generate/create-answer-generator.js";
import { createAnswerModels } from "../../src/answering/generate/create-answer-models.js";
import { retrievalCalibrationFor } from "../../src/answering/retrieve/retrieval-calibration.js";
export { compiledWorkerUrl } from "./compiled-worker.js";
import { compiledWorkerUrl } from "./compiled-worker.js";
import { createRetrievalCaches } from "../../src/answering/retrieve/retrieval-caches.js";
import { SessionCache } from "../../src/widget/session-cache.js";
import { SessionStartBatcher } from "../../src/widget/session-start-batcher.js";
import { startJobQueue } from "../../src/jobs/job-queue.js";
import { createExtractionPool, type ExtractionPool } from "../../src/ingest/extract/extraction-pool.js";
import { createIngestPipeline, type IngestPipeline, type IngestPipelineOptions } from "../../src/ingest/ingest-pipeline.js";
import { registerIngestWorkers } from "../../src/ingest/register-ingest-workers.js";
import type { Embedder } from "../../src/embeddings/embedder.js";
import { pino, type Logger } from "pino";
import { createMetricsRegistry } from "../../src/observability/metrics-registry.js";
import { registerIngestMetrics } from "../../src/observability/ingest-metrics.js";
import type { IngestWorkersOptions } from "../../src/ingest/register-ingest-workers.js";
import { createTestDatabase, type StoreKind, type TestDatabase } from "./test-database.js";
import { SourceUpdatePublisher } from "../../src/console/knowledge/source-update-publisher.js";
import { wordpressSourceKind } from "../../src/wordpress/wordpress-source-kind.js";
import { subscribeDomainEvents } from "../../src/subscribe-domain-events.js";
import { EmbedderRegistry } from "../../src/embeddings/embedder-registry.js";
import { embeddingsKeyBox, WorkspaceEmbedders } from "../../src/ingest/embedding-generations/workspace-embedders.js";

export const TEST_JWT_SECRET = "test-secret-test-secret-test-secret-0123456789";
/** The realtime app secret of test apps, unless FRONTDESK_REALTIME_APP_SECRET gives another. */
export const TEST_REALTIME_SECRET = "test-realtime-secret-test-realtime-secret-0123";
/** The service's VAPID key pair in tests (nothing is generated into a data dir). */
export const TEST_VAPID_KEYS = {
  publicKey: "BFXjrj7_4XR9IdEx1RKEEf84u8o041mPczr27P11Ql-i3_xSklcz9A5_RZ0T3p41ohZadyduSr9HezRAjZrHZo8",
  privateKey: "h7ZtH-x552yN4KSPPwIYWQVqZLXMxz7S76fGVyIaqhk",
};

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  database: TestDatabase;
  /** Every event published on the bus, in order. */
  published: BusEvent[];
  /** Moves the service's clock. */
  clock: { offsetMs: number };
  /** The indexing workers' pipeline, when they were started. */
  pipeline: IngestPipeline | null;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Start the indexing workers, with these crawler overrides. */
  workers?: IngestPipelineOptions["crawler"];
  /** The embedder the service uses; the hashing embedder by default. */
  embedder?: Embedder;
  /** Where the workers and the rate limiter log; silent by default. */
  logger?: Logger;
  /** The cadence of a sitemap's progress lines. */
  progress?: IngestWorkersOptions["progress"];
  /** False: the workers leave workspaces' re-embedding jobs queued (a process that has not started them yet). */
  reembedding?: boolean;
  /** Where the app's request logs go (the routes' `request.log`); silent by default. */
  requestLogger?: Logger;
  /** The file extraction threads' limits (time, heap), shortened by the hostile-file tests. */
  files?: IngestPipelineOptions["files"];
}

/**
 * The page extraction threads of every test app this worker process builds (Vitest runs a worker's
 * files one after another, `isolate: false`): extraction keeps no state between pages, and a new
 * pool per app started 161 threads in a run, each loading linkedom and Readability (~0.2 s of CPU).
 * Its threads exit when idle and never keep the process alive.
 */
let extractionThreads: ExtractionPool | null = null;
function sharedExtractionPool(): ExtractionPool {
  extractionThreads ??= createExtractionPool({ size: 2, workerUrl: compiledWorkerUrl("ingest/extract/extract-worker.js"), idleTimeoutMs: 120_000 });
  return extractionThreads;
}

/** The real application on a fresh store, with its environment given as FRONTDESK_* variables. */
export async function createTestApp(kind: StoreKind, environment: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const config: Config = loadConfig({
    FRONTDESK_JWT_SECRET: TEST_JWT_SECRET,
    FRONTDESK_LOG_LEVEL: "silent",
    FRONTDESK_VAPID_PUBLIC_KEY: TEST_VAPID_KEYS.publicKey,
    FRONTDESK_VAPID_PRIVATE_KEY: TEST_VAPID_KEYS.privateKey,
    ...environment,
  });
  const database = await createTestDatabase(kind);
  const clock = { offsetMs: 0 };
  const now = () => new Date(Date.now() + clock.offsetMs);
  const bus: EventBus = createInProcessEventBus();
  const published: BusEvent[] = [];
  bus.subscribe((event) => published.push(event));
  const logger = options.logger ?? pino({ level: "silent" });
  const limiter = await createRateLimiter(config.rateLimits, config.redisUrl, { logger, redisPrefix: config.redisPrefix });
  // As `serve` starts it: on PGlite the process's own sends wake its workers, which otherwise poll every 2 s.
  const jobs = await startJobQueue(database.db, { retry: { ...TEST_JOB_RETRY, ...config.jobs }, singleProcess: kind === "pglite" });
  // Large calls go to its worker thread, which runs compiled JavaScript.
  const embedder = options.embedder ?? new HashingEmbedder({ workerUrl: compiledWorkerUrl("embeddings/hashing-embedding-worker.js") });
  const sessionCache = new SessionCache(() => now().getTime());
  const registry = new EmbedderRegistry({
    instance: embedder,
    config: config.embeddings,
    allowPrivateNetworks: config.models.allowPrivateNetworks,
    hashingWorkerUrl: compiledWorkerUrl("embeddings/hashing-embedding-worker.js"),
    localWorkerUrl: compiledWorkerUrl("embeddings/local-embedding-worker.js"),
  });
  const embedders = new WorkspaceEmbedders(database.db, registry, embeddingsKeyBox(TEST_JWT_SECRET));
  const services: Services = {
    config,
    db: database.db,
    limiter,
    bus,
    realtime: createRealtime(config, config.realtime.appSecret ?? TEST_REALTIME_SECRET, logger),
    sessionTokens: new SessionTokens(TEST_JWT_SECRET, config.auth.jwtIssuer, () => now().getTime()),
    resumeTokens: new ResumeTokens(TEST_JWT_SECRET, () => now().getTime()),
    secretBoxes: secretBoxesOf(TEST_JWT_SECRET),
    attachmentLinks: new AttachmentLinks(TEST_JWT_SECRET, () => now().getTime()),
    jobs,
    embedder,
    embedders,
    answers: createAnswerGenerator(config.answers),
    answerModels: createAnswerModels(config, TEST_JWT_SECRET, { logger }),
    retrievalCalibration: (embedderId) => retrievalCalibrationFor(embedderId, config.retrieval),
    lexical: createRetrievalCaches({ indexBudgetBytes: config.retrievalIndexBudgetBytes }),
    sessionCache,
    sessionStarts: new SessionStartBatcher(database.db),
    events: subscribeDomainEvents(jobs, config, { db: database.db, bus, sessionCache, logger }),
    metrics: createMetricsRegistry(),
    now,
  };
  const app = await buildApp(services, options.requestLogger ? { loggerInstance: options.requestLogger } : {});
  let pipeline: IngestPipeline | null = null;
  let workers: { close(): Promise<void> } | null = null;
  if (options.workers) {
    const sourceUpdates = new SourceUpdatePublisher(database.db, bus, (error) => logger.warn({ err: error }, "source update not announced"));
    pipeline = createIngestPipeline(config, embedder, { crawler: options.workers, extraction: sharedExtractionPool(), files: { workerUrl: compiledWorkerUrl("ingest/extract/file-extract-worker.js"), ...options.files }, metrics: registerIngestMetrics(services.metrics), embedders });
    workers = await registerIngestWorkers(
      {
        db: database.db,
        jobs,
        events: services.events,
        pipeline,
        logger,
        fileQuestions: curatedAnswersFromFiles,
      onKnowledgeChanged: (agentId) => services.lexical.statistics.invalidate(agentId),
        onSourceChanged: (sourceId, progress) => void sourceUpdates.sourceChanged(sourceId, progress),
      },
      config.workers.concurrency,
      { vectorIndex: config.ingest.vectorIndex, sourceKinds: [wordpressSourceKind], ...(options.reembedding === false ? {} : { workspaceEmbedders: embedders }), ...(options.progress ? { progress: options.progress } : {}) },
    );
  }
  return {
    app,
    services,
    database,
    published,
    clock,
    pipeline,
    async close() {
      await app.close();
      await jobs.stop();
      await workers?.close();
      await pipeline?.close();
      await registry.close();
      await embedder.close();
      await services.answerModels.close();
      await limiter.close();
      await database.drop();
    },
  };
}
