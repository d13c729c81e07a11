import type { Env } from "./env-schema.js";

/** Outbound webhooks: how deliveries are retried and timed out, when an endpoint is disabled, which addresses it may reach. */
export interface WebhookConfig {
  /** Attempts per event and endpoint, the first included (6: about an hour with the default back-off). */
  attempts: number;
  /** The delay before the first retry; each next one doubles it (2 min → 4, 8, 16, 32 min). */
  retryBaseMs: number;
  /** One attempt's deadline: connection, response and body. */
  timeoutMs: number;
  /** An endpoint is disabled after this many consecutive deliveries failed every attempt … */
  disableAfterFailures: number;
  /** … or once it has failed (without a success between) for this long and another delivery fails. */
  disableAfterMs: number;
  /** Lifts the address guard (private, loopback … refused by default), or opens single networks. */
  allowPrivateNetworks: boolean;
  allowedNetworks: string[];
  /** Deliveries a worker process runs at once. */
  concurrency: number;
  /** Attempts of one workspace under way at once, across processes: a slow receiver holds its own workspace's places, not others'. */
  workspaceConcurrency: number;
  /** Failed attempts in a row that open an endpoint's circuit, and how long it stays open before a trial. */
  circuitFailures: number;
  circuitCooldownMs: number;
}

export function webhookConfigFor(env: Env): WebhookConfig {
  return {
    attempts: env.WEBHOOK_ATTEMPTS,
    retryBaseMs: env.WEBHOOK_RETRY_BASE_MS,
    timeoutMs: Math.round(env.WEBHOOK_TIMEOUT_SECONDS * 1000),
    disableAfterFailures: env.WEBHOOK_DISABLE_AFTER_FAILURES,
    disableAfterMs: Math.round(env.WEBHOOK_DISABLE_AFTER_DAYS * 24 * 60 * 60 * 1000),
    allowPrivateNetworks: env.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
    allowedNetworks: env.WEBHOOK_ALLOWED_NETWORKS.split(",").map((entry) => entry.trim()).filter(Boolean),
    concurrency: env.WEBHOOK_CONCURRENCY,
    workspaceConcurrency: env.WEBHOOK_WORKSPACE_CONCURRENCY,
    circuitFailures: env.WEBHOOK_CIRCUIT_FAILURES,
    circuitCooldownMs: env.WEBHOOK_CIRCUIT_COOLDOWN_SECONDS * 1000,
  };
}
