import { join } from "node:path";
import { z } from "zod";
import type { EmbedderConfig } from "../embeddings/create-embedder.js";
import type { AnswerGeneratorConfig, RetrievalThresholdOverrides } from "./answering.js";
import { ENV_PREFIX, envSchema, type Env } from "./env-schema.js";
import { crossFieldProblems } from "./cross-field-rules.js";
import { rateLimitsFor, type RateLimits } from "./rate-limits.js";
import { trustedProxiesOf } from "./trusted-proxies.js";
import { realtimeConfigFor, type RealtimeConfig } from "./realtime.js";
import { webhookConfigFor, type WebhookConfig } from "./webhooks.js";
import { inboundMailConfigFor, type InboundMailConfig } from "./inbound-mail.js";
import { mailConfigFor, type MailConfig } from "./mail.js";
import { pushConfigFor, type PushConfig } from "./push.js";

export interface Config {
  dataDir: string;
  store: { kind: "pglite"; dataDir: string; sharedBuffersMb: number } | { kind: "postgres"; url: string; poolSize: number };
  redisUrl: string | undefined;
  /** Begins every Redis key and channel name, so deployments can share one Redis. */
  redisPrefix: string;
  /** With Redis: a realtime process silent this long is taken for dead, and its presence members removed. */
  realtimeNodeExpirySeconds: number;
  http: {
    host: string;
    port: number;
    trustedProxies: string[];
    sseHeartbeatMs: number;
    /** How long a client has to send a request's headers, and the whole request; how long an idle kept-alive connection stays open. */
    timeouts: { headersMs: number; requestMs: number; keepAliveMs: number };
  };
  /** Where browsers reach this service (widget assets, branding logo). */
  publicUrl: string;
  logLevel: Env["LOG_LEVEL"];
  auth: { jwtSecret: string | undefined; jwtIssuer: string };
  conversationIdleHours: number;
  rateLimits: RateLimits;
  realtime: RealtimeConfig;
  branding: { label: string; url: string };
  /** GET /demo/{agent_id}, and init accepting the service's own origin for it. */
  demo: boolean;
  workers: { concurrency: number };
  /** Overrides of every job's retry policy; unset members keep the job catalog's. */
  jobs: { expireInSeconds?: number; retryLimit?: number; retryDelaySeconds?: number };
  embeddings: EmbedderConfig;
  crawler: { allowPrivateNetworks: boolean; userAgent: string | undefined };
  /**
   * `vectorIndex.minChunks`: an agent's vectors enter the shared HNSW index once it has this many
   * chunks (0: at once; migration 0022); `vectorIndex.own`: an agent expected to hold
   * `minChunks` gets an index of its own, built in bulk with `buildMemoryMb` (0: never; migration 0051).
   */
  ingest: { sitemapMaxPages: number; vectorIndex: { minChunks: number; own: { minChunks: number; buildMemoryMb: number } }; uploadMaxBytes: number };
  /** Files sent in conversations (attachments/): the largest accepted, in bytes. */
  attachments: { maxBytes: number };
  answers: AnswerGeneratorConfig;
  /**
   * Workspaces' own model and embeddings providers (set in the console or the CLI): whether their
   * base URL may be a loopback or private address (Ollama on the same host needs it). The instance's
   * own FRONTDESK_LLM_* and FRONTDESK_EMBEDDINGS_* stay trusted.
   */
  models: { allowPrivateNetworks: boolean };
  /** Workspaces' OpenID providers for the console's single sign-on: whether their issuer may be on loopback or a private network (and http). */
  sso: { allowPrivateNetworks: boolean };
  /** Overrides of the calibrated low-confidence thresholds. */
  retrieval: RetrievalThresholdOverrides;
  /** Memory for in-memory lexical indexes of agents' knowledge (0: always search in SQL). */
  retrievalIndexBudgetBytes: number;
  /**
   * Conversations with no activity for longer than `days` are purged by the retention job (null:
   * kept, unless a workspace sets its own period); their leads too when `includeLeads`.
   */
  retention: { days: number | null; includeLeads: boolean };
  adminSocket: boolean;
  /** Where `worker` serves GET /metrics (on FRONTDESK_HOST); unset: no listener. */
  metricsPort: number | undefined;
  /** Outbound webhooks (src/webhooks/). */
  webhooks: WebhookConfig;
  /** Outbound e-mail (src/mail/). */
  mail: MailConfig;
  /** Replies by e-mail (src/mail/inbound/). */
  inboundMail: InboundMailConfig;
  /** Web Push alerts to operators' devices (src/push/). */
  push: PushConfig;
  /** Answer tests (src/answer-tests/): a change waits `debounceMs` for the rest of its burst before its run starts. */
  answerTests: { debounceMs: number };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Reads FRONTDESK_* variables once; a bad value throws a ConfigError naming the variable. */
export function loadConfig(environment: Record<string, string | undefined>): Config {
  const raw: Record<string, string> = {};
  for (const [name, value] of Object.entries(environment)) {
    if (name.startsWith(ENV_PREFIX) && value !== undefined && value !== "") raw[name.slice(ENV_PREFIX.length)] = value;
  }
  const parsed = envSchema.safeParse(raw);
  if (!parsed.success) throw new ConfigError(describeIssues(parsed.error));
  const env = parsed.data;
  const problems = crossFieldProblems(env);
  if (problems.length > 0) throw new ConfigError(problems);
  const publicUrl = (env.PUBLIC_URL ?? `http://${env.HOST.includes(":") ? `[${env.HOST}]` : env.HOST}:${env.PORT}`).replace(/\/$/, "");
  return {
    dataDir: env.DATA_DIR,
    store: env.DATABASE_URL
      ? { kind: "postgres", url: env.DATABASE_URL, poolSize: env.DATABASE_POOL_SIZE }
      : { kind: "pglite", dataDir: env.DATA_DIR, sharedBuffersMb: env.PGLITE_SHARED_BUFFERS_MB },
    redisUrl: env.REDIS_URL,
    redisPrefix: env.REDIS_PREFIX,
    realtimeNodeExpirySeconds: env.REALTIME_NODE_EXPIRY_SECONDS,
    http: {
      host: env.HOST,
      port: env.PORT,
      trustedProxies: trustedProxiesOf(env),
      sseHeartbeatMs: env.SSE_HEARTBEAT_SECONDS * 1000,
      timeouts: {
        headersMs: Math.round(env.HTTP_HEADERS_TIMEOUT_SECONDS * 1000),
        requestMs: Math.round(env.HTTP_REQUEST_TIMEOUT_SECONDS * 1000),
        keepAliveMs: Math.round(env.HTTP_KEEP_ALIVE_TIMEOUT_SECONDS * 1000),
      },
    },
    publicUrl,
    logLevel: env.LOG_LEVEL,
    auth: { jwtSecret: env.JWT_SECRET, jwtIssuer: env.JWT_ISSUER },
    conversationIdleHours: env.CONVERSATION_IDLE_HOURS,
    rateLimits: rateLimitsFor(env),
    realtime: realtimeConfigFor(env, publicUrl),
    branding: { label: env.BRANDING_LABEL, url: env.BRANDING_URL },
    demo: env.DEMO,
    workers: { concurrency: env.WORKER_CONCURRENCY },
    jobs: {
      ...(env.JOB_TIMEOUT_SECONDS === undefined ? {} : { expireInSeconds: env.JOB_TIMEOUT_SECONDS }),
      ...(env.JOB_RETRY_LIMIT === undefined ? {} : { retryLimit: env.JOB_RETRY_LIMIT }),
      ...(env.JOB_RETRY_DELAY_SECONDS === undefined ? {} : { retryDelaySeconds: env.JOB_RETRY_DELAY_SECONDS }),
    },
    embeddings: {
      provider: env.EMBEDDINGS_PROVIDER,
      modelDir: env.EMBEDDINGS_MODEL_DIR,
      cacheDir: join(env.DATA_DIR, "models"),
      allowRemoteModels: env.EMBEDDINGS_ALLOW_DOWNLOAD,
      remoteHost: env.EMBEDDINGS_MODEL_HOST,
      baseUrl: env.EMBEDDINGS_BASE_URL,
      apiKey: env.EMBEDDINGS_API_KEY,
      model: env.EMBEDDINGS_MODEL,
      dimensions: env.EMBEDDINGS_DIMENSIONS,
      batchSize: env.EMBEDDINGS_BATCH_SIZE,
      workerCount: env.EMBEDDINGS_WORKERS,
      idleTimeoutMs: env.EMBEDDINGS_IDLE_SECONDS * 1000,
    },
    crawler: { allowPrivateNetworks: env.CRAWLER_ALLOW_PRIVATE_NETWORKS, userAgent: env.CRAWLER_USER_AGENT },
    ingest: { sitemapMaxPages: env.SITEMAP_MAX_PAGES, vectorIndex: { minChunks: env.VECTOR_INDEX_MIN_CHUNKS, own: { minChunks: env.VECTOR_OWN_INDEX_MIN_CHUNKS, buildMemoryMb: env.VECTOR_INDEX_BUILD_MEMORY_MB } }, uploadMaxBytes: env.UPLOAD_MAX_BYTES },
    attachments: { maxBytes: env.ATTACHMENT_MAX_BYTES },
    answers: {
      provider: env.LLM_PROVIDER,
      baseUrl: env.LLM_BASE_URL,
      apiKey: env.LLM_API_KEY,
      model: env.LLM_MODEL,
      timeoutSeconds: env.LLM_TIMEOUT_S,
    },
    models: { allowPrivateNetworks: env.MODEL_ALLOW_PRIVATE_NETWORKS },
    sso: { allowPrivateNetworks: env.SSO_ALLOW_PRIVATE_NETWORKS },
    retrieval: {
      ...(env.RETRIEVAL_MIN_SIMILARITY === undefined ? {} : { minSimilarity: env.RETRIEVAL_MIN_SIMILARITY }),
      ...(env.RETRIEVAL_MIN_COVERAGE === undefined ? {} : { minCoverage: env.RETRIEVAL_MIN_COVERAGE }),
    },
    retrievalIndexBudgetBytes: env.RETRIEVAL_INDEX_MB * 1024 * 1024,
    retention: { days: env.RETENTION_DAYS ?? null, includeLeads: env.RETENTION_INCLUDE_LEADS },
    adminSocket: env.ADMIN_SOCKET,
    metricsPort: env.METRICS_PORT,
    webhooks: webhookConfigFor(env),
    mail: mailConfigFor(env),
    inboundMail: inboundMailConfigFor(env),
    push: pushConfigFor(env, publicUrl),
    answerTests: { debounceMs: env.ANSWER_TESTS_DEBOUNCE_SECONDS * 1000 },
  };
}

function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${ENV_PREFIX}${issue.path.join(".")}: ${issue.message}`);
}
