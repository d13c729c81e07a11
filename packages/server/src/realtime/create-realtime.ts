import type { Logger } from "pino";
import { createEmbeddedRealtime, type EmbeddedRealtimeConfig } from "./create-embedded-realtime.js";
import { createPusherDriver } from "./pusher-driver.js";
import { embeddedRealtime, type Realtime } from "./realtime.js";

/**
 * The realtime layer FRONTDESK_REALTIME_DRIVER asks for: the embedded server (on this process's
 * HTTP port, shared through Redis when configured), or an external Pusher-compatible server.
 * `appSecret` is the resolved secret (configured, or the data dir's for the embedded server).
 */
export function createRealtime(config: EmbeddedRealtimeConfig, appSecret: string, logger: Logger): Realtime {
  const { driver, appId, appKey } = config.realtime;
  if (driver.kind === "pusher") {
    return createPusherDriver({ apiUrl: driver.apiUrl, timeoutMs: driver.timeoutMs, credentials: { appId, appKey, appSecret }, logger });
  }
  return embeddedRealtime(createEmbeddedRealtime(config, appSecret, logger));
}
