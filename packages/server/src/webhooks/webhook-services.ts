import type { Config } from "../config/config.js";
import { resolveJwtSecret } from "../config/jwt-secret.js";
import type { HostResolver } from "../network/guarded-agent.js";
import { webhookSecretBox, type WebhookSecretBox } from "./webhook-secret-box.js";
import { WebhookTransport } from "./webhook-transport.js";

/** The long-lived parts of webhooks in one process: the secrets' seal and the guarded HTTP client. */
export interface WebhookServices {
  secrets: WebhookSecretBox;
  transport: WebhookTransport;
  close(): Promise<void>;
}

/**
 * Built from the configuration: the seal's key comes from the service's secret (FRONTDESK_JWT_SECRET,
 * or the one the data dir keeps), so every process of a deployment must share it to sign.
 * `resolve` replaces DNS (tests).
 */
export async function createWebhookServices(config: Config, options: { resolve?: HostResolver } = {}): Promise<WebhookServices> {
  const secrets = webhookSecretBox(await resolveJwtSecret(config.auth.jwtSecret, config.dataDir));
  const transport = new WebhookTransport(config.webhooks, options.resolve);
  return { secrets, transport, close: () => transport.close() };
}
