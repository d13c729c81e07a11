import { SecretBox } from "../auth/secret-box.js";
import type { Config } from "../config/config.js";
import { resolveJwtSecret } from "../config/jwt-secret.js";
import { resolveVapidKeys, type VapidKeys } from "../config/vapid-keys.js";
import type { HostResolver } from "../network/guarded-agent.js";
import { PushTransport } from "./push-transport.js";

/** The long-lived parts of Web Push in one process: the VAPID keys, the auth secrets' seal, the guarded HTTP client. */
export interface PushServices {
  vapid: VapidKeys & { subject: string };
  secrets: SecretBox;
  transport: PushTransport;
  close(): Promise<void>;
}

/**
 * Built from the configuration at start: the VAPID keys (configured, or generated once and kept
 * in the data dir), the seal's key from the service's secret (every process must share it).
 * `resolve` replaces DNS (tests).
 */
export async function createPushServices(config: Config, options: { resolve?: HostResolver } = {}): Promise<PushServices> {
  const keys = await resolveVapidKeys(config.push, config.dataDir);
  const secrets = new SecretBox(await resolveJwtSecret(config.auth.jwtSecret, config.dataDir), "push subscription auth secret");
  const transport = new PushTransport(config.push, options.resolve);
  return { vapid: { ...keys, subject: config.push.vapidSubject }, secrets, transport, close: () => transport.close() };
}
