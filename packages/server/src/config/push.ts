import { createECDH } from "node:crypto";
import { ENV_PREFIX, type Env } from "./env-schema.js";

/** Web Push alerts to operators' devices (src/push/): the VAPID identity, the address guard's exceptions, retries. */
export interface PushConfig {
  /** The configured VAPID key pair (base64url), or null: one is generated on first start and kept in the data dir. */
  vapidKeys: { publicKey: string; privateKey: string } | null;
  /** Who runs this service, told to push services in every request (`mailto:` or `https:`). */
  vapidSubject: string;
  /** Lifts the address guard for subscription endpoints (a push service on loopback in tests, an intranet one). */
  allowPrivateNetworks: boolean;
  /** Sends per alert and device, the first included; 429 and 5xx are retried after `retryBaseMs`, doubled each time. */
  attempts: number;
  retryBaseMs: number;
  /** One request's deadline. */
  timeoutMs: number;
  /** How long a push service keeps an alert for a device that is offline. */
  ttlSeconds: number;
  /** Sends a worker process runs at once (0: this process sends none). */
  concurrency: number;
}

export function pushConfigFor(env: Env, publicUrl: string): PushConfig {
  return {
    vapidKeys: env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY ? { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY } : null,
    vapidSubject: env.VAPID_SUBJECT ?? (publicUrl.startsWith("https:") ? publicUrl : "mailto:frontdesk@localhost"),
    allowPrivateNetworks: env.PUSH_ALLOW_PRIVATE_NETWORKS,
    attempts: env.PUSH_ATTEMPTS,
    retryBaseMs: env.PUSH_RETRY_BASE_MS,
    timeoutMs: Math.round(env.PUSH_TIMEOUT_SECONDS * 1000),
    ttlSeconds: env.PUSH_TTL_SECONDS,
    concurrency: env.PUSH_CONCURRENCY,
  };
}

/** The uncompressed P-256 public key of a private key (both base64url), or null when it is not one. */
export function vapidPublicKeyOf(privateKey: string): string | null {
  const bytes = Buffer.from(privateKey, "base64url");
  if (bytes.length !== 32 || bytes.toString("base64url") !== privateKey) return null;
  try {
    const ecdh = createECDH("prime256v1");
    ecdh.setPrivateKey(bytes);
    return ecdh.getPublicKey().toString("base64url");
  } catch {
    return null;
  }
}

/** What is wrong with configured VAPID keys, each problem naming its variable. */
export function vapidKeyProblems(env: Env): string[] {
  const { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey } = env;
  if (publicKey === undefined && privateKey === undefined) return [];
  if (publicKey === undefined) return [`${ENV_PREFIX}VAPID_PUBLIC_KEY: required when ${ENV_PREFIX}VAPID_PRIVATE_KEY is set (set both, or neither to have a pair generated)`];
  if (privateKey === undefined) return [`${ENV_PREFIX}VAPID_PRIVATE_KEY: required when ${ENV_PREFIX}VAPID_PUBLIC_KEY is set (set both, or neither to have a pair generated)`];
  const derived = vapidPublicKeyOf(privateKey);
  if (derived === null) return [`${ENV_PREFIX}VAPID_PRIVATE_KEY: must be a P-256 private key, 32 bytes in base64url (as \`npx web-push generate-vapid-keys\` prints)`];
  if (derived !== publicKey) return [`${ENV_PREFIX}VAPID_PUBLIC_KEY: is not the public key of ${ENV_PREFIX}VAPID_PRIVATE_KEY`];
  return [];
}
