import type { Config } from "./config/config.js";
import type { Database } from "./db/database.js";
import type { EventBus } from "./realtime/event-bus.js";
import type { Realtime } from "./realtime/realtime.js";
import type { RateLimiter } from "./ratelimit/rate-limiter.js";
import type { SessionTokens } from "./auth/session-token.js";
import type { ResumeTokens } from "./auth/resume-token.js";
import type { SecretBoxes } from "./auth/secret-box.js";
import type { AttachmentLinks } from "./auth/attachment-links.js";
import type { Embedder } from "./embeddings/embedder.js";
import type { JobQueue } from "./jobs/job-queue.js";
import type { AnswerGenerator } from "./answering/generate/answer-generator.js";
import type { AnswerModels } from "./answering/generate/answer-models.js";
import type { RetrievalCalibration } from "./answering/retrieve/retrieval-calibration.js";
import type { RetrievalCaches } from "./answering/retrieve/retrieval-caches.js";
import type { SessionCache } from "./widget/session-cache.js";
import type { SessionStartBatcher } from "./widget/session-start-batcher.js";
import type { Registry } from "prom-client";
import type { FrontdeskEvents } from "./events/frontdesk-events.js";
import type { WorkspaceEmbedders } from "./ingest/embedding-generations/workspace-embedders.js";

/** What the use cases are given: built once by the entry point, injected everywhere. */
export interface Services {
  config: Config;
  db: Database;
  limiter: RateLimiter;
  bus: EventBus;
  /** Publishes events to, and signs subscriptions for, the realtime server: embedded (attached by buildApp) or external. */
  realtime: Realtime;
  sessionTokens: SessionTokens;
  /** Seals and opens the e-mailed links that reopen a conversation in the widget (mail/, widget/). */
  resumeTokens: ResumeTokens;
  /** Seals what must be read again (operators' authenticator secrets, sign-in's pending step), one key per purpose, from the service's secret. */
  secretBoxes: SecretBoxes;
  /** Signs and checks the short-lived links to attachments that a visitor's browser loads (attachments/). */
  attachmentLinks: AttachmentLinks;
  jobs: JobQueue;
  /** Raises a change's domain event inside its transaction; the webhooks subscribe (subscribe-domain-events.ts). */
  events: FrontdeskEvents;
  /** The instance's embedder (FRONTDESK_EMBEDDINGS_*): the default of every workspace. */
  embedder: Embedder;
  /** Each workspace's embedder (the instance's unless it chose another), for its questions and documents. */
  embedders: WorkspaceEmbedders;
  /** The instance's generator (FRONTDESK_LLM_*): agents of a workspace without its own provider answer with it. */
  answers: AnswerGenerator;
  /** Each agent's generator (its workspace's provider, a model of it, or the extractive answerer), and the providers' key seal and guarded network. */
  answerModels: AnswerModels;
  /** Fusion weights and low-confidence thresholds for vectors of an embedder. */
  retrievalCalibration: (embedderId: string) => RetrievalCalibration;
  /** BM25 statistics and in-memory lexical indexes of agents' knowledge, cached in this process. */
  lexical: RetrievalCaches;
  /** Recently authenticated sessions' conversations (two seconds). */
  sessionCache: SessionCache;
  /** POST /init's store writes, batched per agent (group commit). */
  sessionStarts: SessionStartBatcher;
  /** This process's Prometheus registry: served by GET /metrics (serve) or the metrics listener (worker). */
  metrics: Registry;
  /** The time; tests move it. */
  now: () => Date;
}
