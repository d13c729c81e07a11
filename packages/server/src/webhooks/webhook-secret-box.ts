import { randomBytes } from "node:crypto";
import { SecretBox } from "../auth/secret-box.js";

/** A new endpoint's signing secret: `whsec_` and 32 random bytes in base64url (receivers use the whole string as the HMAC key). */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

/** What the console and the CLI show of a secret after its creation: enough to recognise it. */
export function webhookSecretPrefix(secret: string): string {
  return secret.slice(0, 10);
}

/**
 * Seals endpoints' signing secrets for storage. A signing secret must be readable again to sign
 * each delivery, so it is sealed (auth/secret-box.ts: AES-256-GCM under a key derived from the
 * service's secret for this purpose), not hashed; the endpoint's id is the associated data.
 */
export type WebhookSecretBox = SecretBox;

export const webhookSecretBox = (serviceSecret: string): WebhookSecretBox => new SecretBox(serviceSecret, "webhook endpoint signing secret");
