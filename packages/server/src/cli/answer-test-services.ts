import { pino } from "pino";
import type { RunningServices } from "../answer-tests/answer-tests.js";
import { createAnswerGenerator } from "../answering/generate/create-answer-generator.js";
import { createAnswerModels } from "../answering/generate/create-answer-models.js";
import { resolveJwtSecret } from "../config/jwt-secret.js";
import { createRetrievalCaches } from "../answering/retrieve/retrieval-caches.js";
import { retrievalCalibrationFor } from "../answering/retrieve/retrieval-calibration.js";
import type { Config } from "../config/config.js";
import type { Database } from "../db/database.js";
import type { JobQueue } from "../jobs/job-queue.js";
import { openWorkspaceEmbedders } from "../runtime.js";
import { subscribeDomainEvents } from "../subscribe-domain-events.js";

/**
 * What `admin answer-test run` needs when no server is running: the answering pipeline as the
 * configuration builds it for the server (its embedder, generators, calibration and lexical caches)
 * and the domain events (a regression's mails, inbox and webhooks are queued for the workers).
 * Logs go to standard error: standard output is the command's JSON.
 */
export async function openAnswerTestServices(config: Config, db: Database, jobs: () => Promise<JobQueue>): Promise<RunningServices & { close(): Promise<void> }> {
  const logger = pino({ level: config.logLevel, name: "frontdesk-admin" }, pino.destination(2));
  const opened = await openWorkspaceEmbedders(config, db, logger);
  const lexical = createRetrievalCaches({ indexBudgetBytes: config.retrievalIndexBudgetBytes });
  const answerModels = createAnswerModels(config, await resolveJwtSecret(config.auth.jwtSecret, config.dataDir), { logger: logger.child({ component: "answers" }) });
  return {
    db,
    embedder: opened.embedders.instance,
    embedders: opened.embedders,
    answers: createAnswerGenerator(config.answers, { logger: logger.child({ component: "answers" }) }),
    answerModels,
    retrievalCalibration: (embedderId) => retrievalCalibrationFor(embedderId, config.retrieval),
    lexical,
    events: subscribeDomainEvents(await jobs(), config),
    now: () => new Date(),
    async close() {
      await lexical.indexes.close();
      await answerModels.close();
      await opened.close();
    },
  };
}
