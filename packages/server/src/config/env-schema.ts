import { z } from "zod";
import { trustedProxyProblem } from "./trusted-proxies.js";

const booleanFromEnv = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((value) => value === "true" || value === "1" || value === "yes");

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();
const nonNegativeInt = z.coerce.number().int().min(0);

function urlWithProtocols(protocols: string[]) {
  return z.string().refine((value) => {
    try {
      return protocols.includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, `must be a URL with scheme ${protocols.join(" or ")}`);
}

/**
 * Every environment variable the service reads, without the FRONTDESK_ prefix.
 * Nothing else in the code base reads process.env.
 */
export const envSchema = z.object({
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: urlWithProtocols(["postgres:", "postgresql:"]).optional(),
  DATABASE_POOL_SIZE: positiveInt.default(10),
  PGLITE_SHARED_BUFFERS_MB: positiveInt.max(16_384).default(16),
  REDIS_URL: urlWithProtocols(["redis:", "rediss:"]).optional(),
  REDIS_PREFIX: z.string().min(1).max(100).default("frontdesk:"),
  HOST: z.string().min(1).default("127.0.0.1"),
  PORT: port.default(8080),
  PUBLIC_URL: urlWithProtocols(["http:", "https:"]).optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  JWT_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  JWT_ISSUER: z.string().min(1).default("frontdesk"),
  TRUSTED_PROXIES: z
    .string()
    .default("")
    .superRefine((value, context) => {
      for (const entry of value.split(",").map((part) => part.trim()).filter(Boolean)) {
        const problem = trustedProxyProblem(entry);
        if (problem) context.addIssue({ code: "custom", message: problem });
      }
    }),
  CONVERSATION_IDLE_HOURS: z.coerce.number().positive().default(24),
  RATE_LIMIT_PROFILE: z.enum(["standard", "high"]).default("standard"),
  RATE_LIMIT_INIT_PER_MINUTE: positiveInt.optional(),
  RATE_LIMIT_INIT_PER_HOUR_PER_IP: nonNegativeInt.optional(),
  RATE_LIMIT_RULES_PER_MINUTE: positiveInt.optional(),
  RATE_LIMIT_SESSION_PER_MINUTE: positiveInt.optional(),
  RATE_LIMIT_LEADS_PER_MINUTE: positiveInt.optional(),
  RATE_LIMIT_TYPING_PER_MINUTE: positiveInt.optional(),
  RATE_LIMIT_SATISFACTION_PER_MINUTE: positiveInt.optional(),
  RATE_LIMIT_COUPON_PER_MINUTE: positiveInt.optional(),
  RATE_LIMIT_SOURCES_PER_MINUTE: positiveInt.optional(),
  RATE_LIMIT_WP_PER_MINUTE: positiveInt.optional(),
  RATE_LIMIT_FILES_PER_MINUTE: positiveInt.optional(),
  REALTIME_HOST: z.string().min(1).optional(),
  REALTIME_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  REALTIME_SCHEME: z.enum(["ws", "wss", "http", "https"]).optional(),
  REALTIME_APP_ID: z.string().regex(/^[\w.-]{1,64}$/, "must be 1 to 64 letters, digits, '_', '.' or '-'").default("frontdesk"),
  REALTIME_APP_KEY: z.string().regex(/^[\w.-]{1,64}$/, "must be 1 to 64 letters, digits, '_', '.' or '-'").default("frontdesk"),
  // At least 32 characters for the embedded server (cross-field-rules.ts); an external server's secret is its own (Pusher's are 20).
  REALTIME_APP_SECRET: z.string().min(1).optional(),
  REALTIME_DRIVER: z.enum(["embedded", "pusher"]).default("embedded"),
  REALTIME_API_URL: urlWithProtocols(["http:", "https:"]).optional(),
  REALTIME_API_TIMEOUT_SECONDS: z.coerce.number().positive().max(60).default(5),
  REALTIME_ACTIVITY_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(30),
  REALTIME_PONG_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(30),
  REALTIME_NODE_EXPIRY_SECONDS: z.coerce.number().min(1).max(3600).default(15),
  REALTIME_MAX_MESSAGE_BYTES: positiveInt.default(10_240),
  REALTIME_MAX_EVENT_PAYLOAD_BYTES: positiveInt.default(102_400),
  REALTIME_MAX_CHANNEL_NAME_LENGTH: positiveInt.max(1000).default(200),
  REALTIME_MAX_CHANNELS_PER_EVENT: positiveInt.default(100),
  REALTIME_MAX_BATCH_EVENTS: positiveInt.default(10),
  REALTIME_MAX_CONNECTIONS: positiveInt.default(10_000),
  REALTIME_MAX_CONNECTIONS_PER_IP: positiveInt.default(200),
  REALTIME_MAX_CHANNELS_PER_CONNECTION: positiveInt.default(100),
  REALTIME_MAX_SEND_BUFFER_BYTES: positiveInt.default(1_048_576),
  BRANDING_LABEL: z.string().default("Powered by Frontdesk"),
  BRANDING_URL: urlWithProtocols(["http:", "https:"]).default("https://github.com/frontdesk/frontdesk"),
  DEMO: booleanFromEnv.default(true),
  WORKER_CONCURRENCY: nonNegativeInt.default(2),
  JOB_TIMEOUT_SECONDS: positiveInt.optional(),
  JOB_RETRY_LIMIT: nonNegativeInt.optional(),
  JOB_RETRY_DELAY_SECONDS: positiveInt.optional(),
  EMBEDDINGS_PROVIDER: z.enum(["local", "openai", "hashing"]).default("local"),
  EMBEDDINGS_MODEL: z.string().min(1).optional(),
  EMBEDDINGS_MODEL_DIR: z.string().min(1).optional(),
  EMBEDDINGS_ALLOW_DOWNLOAD: booleanFromEnv.default(true),
  EMBEDDINGS_MODEL_HOST: urlWithProtocols(["http:", "https:"]).optional(),
  EMBEDDINGS_BASE_URL: urlWithProtocols(["http:", "https:"]).optional(),
  EMBEDDINGS_API_KEY: z.string().min(1).optional(),
  EMBEDDINGS_DIMENSIONS: positiveInt.optional(),
  EMBEDDINGS_BATCH_SIZE: positiveInt.optional(),
  EMBEDDINGS_WORKERS: positiveInt.default(1),
  EMBEDDINGS_IDLE_SECONDS: z.coerce.number().positive().max(86_400).default(300),
  LLM_PROVIDER: z.enum(["extractive", "openai", "anthropic"]).default("extractive"),
  LLM_BASE_URL: urlWithProtocols(["http:", "https:"]).optional(),
  LLM_API_KEY: z.string().min(1).optional(),
  LLM_MODEL: z.string().min(1).optional(),
  MODEL_ALLOW_PRIVATE_NETWORKS: booleanFromEnv.default(false),
  /** Workspaces' OpenID providers (console single sign-on) on loopback or a private network, over http too. */
  SSO_ALLOW_PRIVATE_NETWORKS: booleanFromEnv.default(false),
  SSE_HEARTBEAT_SECONDS: z.coerce.number().positive().max(300).default(15),
  HTTP_HEADERS_TIMEOUT_SECONDS: z.coerce.number().positive().max(600).default(10),
  HTTP_REQUEST_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(30),
  HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(72),
  LLM_TIMEOUT_S: z.coerce.number().positive().max(600).default(20),
  RETRIEVAL_MIN_SIMILARITY: z.coerce.number().min(-1).max(1).optional(),
  RETRIEVAL_MIN_COVERAGE: z.coerce.number().min(0).max(1).optional(),
  RETRIEVAL_INDEX_MB: z.coerce.number().int().min(0).max(1_000_000).default(256),
  CRAWLER_ALLOW_PRIVATE_NETWORKS: booleanFromEnv.default(false),
  CRAWLER_USER_AGENT: z.string().min(1).optional(),
  /** The largest file uploaded as a source (issue 32), in bytes: 25 MB by default. */
  UPLOAD_MAX_BYTES: positiveInt.max(1024 * 1024 * 1024).default(25 * 1024 * 1024),
  /** The largest attachment a visitor or an operator may send (attachments/). */
  ATTACHMENT_MAX_BYTES: positiveInt.max(100 * 1024 * 1024).default(10 * 1024 * 1024),
  SITEMAP_MAX_PAGES: positiveInt.max(1_000_000).default(5000),
  VECTOR_INDEX_MIN_CHUNKS: z.coerce.number().int().min(0).max(10_000_000).default(1000),
  /** An agent expected to hold this many chunks gets an HNSW index of its own, built in bulk after its sync (Postgres; 0: never). */
  VECTOR_OWN_INDEX_MIN_CHUNKS: z.coerce.number().int().min(0).max(100_000_000).default(20_000),
  /** `maintenance_work_mem` of that build, in MiB. */
  VECTOR_INDEX_BUILD_MEMORY_MB: z.coerce.number().int().min(64).max(1_048_576).default(1024),
  ADMIN_SOCKET: booleanFromEnv.default(true),
  RETENTION_DAYS: positiveInt.max(36_500).optional(),
  RETENTION_INCLUDE_LEADS: booleanFromEnv.default(false),
  METRICS_PORT: port.optional(),
  WEBHOOK_ATTEMPTS: positiveInt.max(20).default(6),
  WEBHOOK_RETRY_BASE_MS: positiveInt.max(86_400_000).default(120_000),
  WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().positive().max(60).default(10),
  WEBHOOK_DISABLE_AFTER_FAILURES: positiveInt.default(20),
  WEBHOOK_DISABLE_AFTER_DAYS: z.coerce.number().positive().max(365).default(3),
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: booleanFromEnv.default(false),
  WEBHOOK_ALLOWED_NETWORKS: z
    .string()
    .default("")
    .superRefine((value, context) => {
      for (const entry of value.split(",").map((part) => part.trim()).filter(Boolean)) {
        if (!/^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(entry)) context.addIssue({ code: "custom", message: `"${entry}" is not an IP address or CIDR` });
      }
    }),
  WEBHOOK_CONCURRENCY: nonNegativeInt.max(100).default(4),
  WEBHOOK_WORKSPACE_CONCURRENCY: positiveInt.max(100).default(2),
  WEBHOOK_CIRCUIT_FAILURES: positiveInt.max(1000).default(5),
  WEBHOOK_CIRCUIT_COOLDOWN_SECONDS: positiveInt.max(86_400).default(60),
  RATE_LIMIT_WEBHOOK_TESTS_PER_MINUTE: positiveInt.optional(),
  RATE_LIMIT_INBOUND_MAIL_PER_MINUTE: positiveInt.optional(),
  SMTP_URL: urlWithProtocols(["smtp:", "smtps:"]).optional(),
  MAIL_FROM: z.string().min(3).max(320).optional(),
  SMTP_TLS_CA: z.string().min(1).optional(),
  SMTP_TIMEOUT_SECONDS: z.coerce.number().positive().max(300).default(30),
  MAIL_ATTEMPTS: positiveInt.max(20).default(6),
  MAIL_RETRY_BASE_MS: positiveInt.max(86_400_000).default(60_000),
  MAIL_CONCURRENCY: nonNegativeInt.max(100).default(2),
  EMAIL_UNSEEN_DELAY_SECONDS: nonNegativeInt.max(86_400).default(120),
  RATE_LIMIT_TRANSCRIPTS_PER_HOUR: positiveInt.optional(),
  RATE_LIMIT_ATTACHMENTS_PER_HOUR: positiveInt.optional(),
  MAIL_REPLY_TO: z.string().min(3).max(254).optional(),
  IMAP_URL: urlWithProtocols(["imap:", "imaps:"]).optional(),
  IMAP_MAILBOX: z.string().min(1).max(200).default("INBOX"),
  IMAP_POLL_SECONDS: positiveInt.max(86_400).default(60),
  IMAP_TLS_CA: z.string().min(1).optional(),
  INBOUND_MAIL_MAX_BYTES: positiveInt.max(50 * 1024 * 1024).default(1024 * 1024),
  INBOUND_MAILGUN_SIGNING_KEY: z.string().min(16).max(200).optional(),
  INBOUND_POSTMARK_CREDENTIALS: z.string().regex(/^[^:\s]{1,100}:\S{16,200}$/, "must be user:password (a password of at least 16 characters)").optional(),
  VAPID_PUBLIC_KEY: z.string().regex(/^[\w-]{87}$/, "must be an uncompressed P-256 public key, 65 bytes in base64url (87 characters)").optional(),
  VAPID_PRIVATE_KEY: z.string().min(1).optional(),
  VAPID_SUBJECT: z
    .string()
    .refine((value) => /^mailto:[^\s@]+@[^\s@]+$/.test(value) || (URL.canParse(value) && new URL(value).protocol === "https:"), "must be a mailto: address or an https: URL")
    .optional(),
  PUSH_ALLOW_PRIVATE_NETWORKS: booleanFromEnv.default(false),
  PUSH_ATTEMPTS: positiveInt.max(20).default(5),
  PUSH_RETRY_BASE_MS: positiveInt.max(3_600_000).default(30_000),
  PUSH_TIMEOUT_SECONDS: z.coerce.number().positive().max(60).default(10),
  PUSH_TTL_SECONDS: nonNegativeInt.max(2_419_200).default(3600),
  PUSH_CONCURRENCY: nonNegativeInt.max(100).default(4),
  ANSWER_TESTS_DEBOUNCE_SECONDS: nonNegativeInt.max(86_400).default(60),
});

export type Env = z.infer<typeof envSchema>;
export const ENV_PREFIX = "FRONTDESK_";
