import { SecretBox } from "../auth/secret-box.js";

/**
 * Seals workspaces' model provider API keys for storage (auth/secret-box.ts: AES-256-GCM under a
 * key derived from the service's secret for this purpose, the workspace's id as associated data).
 * A key must be sent to the provider with every answer, so it is sealed, not hashed; no API
 * returns it, only its last 4 characters.
 */
export type ModelProviderKeys = SecretBox;

export const modelProviderKeys = (serviceSecret: string): ModelProviderKeys => new SecretBox(serviceSecret, "workspace model provider api key");

/** What the console shows of a key: enough to recognise it, never enough to use it. */
export const apiKeyLast4 = (apiKey: string): string | null => (apiKey.length >= 12 ? apiKey.slice(-4) : null);
