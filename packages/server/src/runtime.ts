import type { Logger } from "pino";
import { SessionTokens } from "./auth/session-token.js";
import { ResumeTokens } from "./auth/resume-token.js";
import { AttachmentLinks } from "./auth/attachment-links.js";
import type { Config } from "./config/config.js";
import { resolveJwtSecret } from "./config/jwt-secret.js";
import type { Database } from "./db/database.js";
import { migrate } from "./db/migrate.js";
import { openDatabase } from "./db/open-database.js";
import { createEmbedder } from "./embeddings/create-embedder.js";
import type { Embedder } from "./embeddings/embedder.js";
import { EmbedderRegistry } from "./embeddings/embedder-registry.js";
import { embeddingsKeyBox, WorkspaceEmbedders } from "./ingest/embedding-generations/workspace-embedders.js";
import { startJobQueue } from "./jobs/job-queue.js";
import { createAnswerGenerator } from "./answering/generate/create-answer-generator.js";
import { createAnswerModels } from "./answering/generate/create-answer-models.js";
import { retrievalCalibrationFor } from "./answering/retrieve/retrieval-calibration.js";
import { createRetrievalCaches } from "./answering/retrieve/retrieval-caches.js";
import { SessionCache } from "./widget/session-cache.js";
import { SessionStartBatcher } from "./widget/session-start-batcher.js";
import { createRateLimiter } from "./ratelimit/flexible-rate-limiter.js";
import { secretBoxesOf } from "./auth/secret-box.js";
import { createMetricsRegistry } from "./observability/metrics-registry.js";
import { createInProcessEventBus } from "./realtime/event-bus.js";
import { resolveRealtimeSecret } from "./config/realtime-secret.js";
import { createRealtime } from "./realtime/create-realtime.js";
import type { Services } from "./services.js";
import { subscribeDomainEvents } from "./subscribe-domain-events.js";
import { loadGeneralEnglishRanks } from "./answering/confidence/general-english-rarity.js";
import { loadFollowUpWords } from "./answering/retrieve/follow-up.js";
import { loadSpellingVariants } from "./answering/retrieve/spelling-variants.js";

/** Opens the store and applies pending migrations. */
export async function openMigratedDatabase(config: Config, logger?: Logger): Promise<Database> {
  const db = await openDatabase(config.store);
  try {
    const applied = await migrate(db);
    if (applied.length > 0) logger?.info({ applied }, "migrations applied");
    return db;
  } catch (error) {
    await db.close();
    throw error;
  }
}

/** Everything the use cases need, built from the configuration. */
export async function createServices(config: Config, logger: Logger): Promise<Services> {
  const opened: (() => Promise<void>)[] = [];
  try {
    return await openServices(config, logger, opened);
  } catch (error) {
    // A start that fails half-way closes what it had opened (newest first): nothing keeps the process alive.
    for (const close of opened.reverse()) await close().catch(() => undefined);
    throw error;
  }
}

function workspaceEmbeddersOf(config: Config, db: Database, instance: Embedder, serviceSecret: string): WorkspaceEmbedders {
  const registry = new EmbedderRegistry({ instance, config: config.embeddings, allowPrivateNetworks: config.models.allowPrivateNetworks });
  return new WorkspaceEmbedders(db, registry, embeddingsKeyBox(serviceSecret));
}

/** Workspaces' embedders for a command run without a server (the admin CLI); close() when done. */
export async function openWorkspaceEmbedders(config: Config, db: Database, logger: Logger): Promise<{ embedders: WorkspaceEmbedders; close(): Promise<void> }> {
  const instance = await createEmbedder(config.embeddings, logger.child({ component: "embeddings" }));
  const embedders = workspaceEmbeddersOf(config, db, instance, await resolveJwtSecret(config.auth.jwtSecret, config.dataDir));
  return {
    embedders,
    async close() {
      await embedders.registry.close();
      await instance.close();
    },
  };
}

async function openServices(config: Config, logger: Logger, opened: (() => Promise<void>)[]): Promise<Services> {
  const jwtSecret = await resolveJwtSecret(config.auth.jwtSecret, config.dataDir);
  const realtimeSecret = await resolveRealtimeSecret(config.realtime.appSecret, config.dataDir);
  // A model's answers stream from a worker thread: their per-token work stays off the event loop.
  const answers = createAnswerGenerator(config.answers, { logger: logger.child({ component: "answers" }), thread: {} });
  const db = await openMigratedDatabase(config, logger);
  opened.push(() => db.close());
  const limiter = await createRateLimiter(config.rateLimits, config.redisUrl, { logger: logger.child({ component: "ratelimit" }), redisPrefix: config.redisPrefix });
  opened.push(() => limiter.close());
  const jobs = await startJobQueue(db, {
    retry: config.jobs,
    singleProcess: config.store.kind === "pglite",
    // A process with workers fires the stored schedules (the retention purge); an API-only `serve` does not.
    runSchedules: config.workers.concurrency > 0,
    onError: (error) => logger.error({ err: error }, "job queue error"),
  });
  opened.push(() => jobs.stop());
  const embedder = await createEmbedder(config.embeddings, logger.child({ component: "embeddings" }));
  const embedders = workspaceEmbeddersOf(config, db, embedder, jwtSecret);
  // The answers' word lists (3.6 MB of JSON, the spelling variants' 0.1 MB, the names of days,
  // months and countries a follow-up swaps) are read now, before requests are served, not in the
  // first question's turn.
  loadGeneralEnglishRanks();
  loadSpellingVariants();
  loadFollowUpWords();
  const bus = createInProcessEventBus();
  const sessionCache = new SessionCache();
  return {
    config,
    db,
    limiter,
    bus,
    realtime: createRealtime(config, realtimeSecret, logger.child({ component: "realtime" })),
    sessionTokens: new SessionTokens(jwtSecret, config.auth.jwtIssuer),
    resumeTokens: new ResumeTokens(jwtSecret),
    secretBoxes: secretBoxesOf(jwtSecret),
    attachmentLinks: new AttachmentLinks(jwtSecret),
    jobs,
    events: subscribeDomainEvents(jobs, config, { db, bus, sessionCache, logger: logger.child({ component: "events" }) }),
    embedder,
    embedders,
    answers,
    answerModels: createAnswerModels(config, jwtSecret, { logger: logger.child({ component: "answers" }) }),
    retrievalCalibration: (embedderId) => retrievalCalibrationFor(embedderId, config.retrieval),
    lexical: createRetrievalCaches({
      indexBudgetBytes: config.retrievalIndexBudgetBytes,
      onIndexError: (error, agentId) => logger.warn({ err: error, agentId }, "lexical index build failed; searching in SQL"),
    }),
    sessionCache,
    sessionStarts: new SessionStartBatcher(db),
    metrics: createMetricsRegistry(),
    now: () => new Date(),
  };
}

export async function closeServices(services: Services): Promise<void> {
  await services.realtime.close();
  await services.jobs.stop();
  await services.lexical.indexes.close();
  await services.embedders.registry.close();
  await services.embedder.close();
  await services.answerModels.close();
  await services.limiter.close();
  await services.db.close();
}
