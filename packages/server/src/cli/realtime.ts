import type { Logger } from "pino";
import type { Config } from "../config/config.js";
import { resolveRealtimeSecret } from "../config/realtime-secret.js";
import { createMetricsRegistry } from "../observability/metrics-registry.js";
import { buildRealtimeApp } from "../realtime-app.js";
import { createEmbeddedRealtime } from "../realtime/create-embedded-realtime.js";
import { onShutdown } from "./serve.js";

/**
 * `frontdesk realtime`: the embedded realtime server on its own, on FRONTDESK_HOST/PORT. It opens
 * no store. Its app secret is FRONTDESK_REALTIME_APP_SECRET or the data dir's (as `serve`'s); with
 * FRONTDESK_REDIS_URL it shares events and presence with every process on that Redis.
 */
export async function serveRealtime(config: Config, logger: Logger): Promise<void> {
  const secret = await resolveRealtimeSecret(config.realtime.appSecret, config.dataDir);
  const server = createEmbeddedRealtime(config, secret, logger.child({ component: "realtime" }));
  try {
    const app = await buildRealtimeApp({ config, server, metrics: createMetricsRegistry(), loggerInstance: logger.child({ component: "http" }) });
    const url = await app.listen({ host: config.http.host, port: config.http.port });
    logger.info({ url, appId: config.realtime.appId, redis: config.redisUrl !== undefined }, "Frontdesk realtime is listening");
    // Closing the app closes every socket with 4200 first (attachRealtimeServer), so clients move to another process.
    onShutdown(logger, () => app.close());
  } catch (error) {
    await server.close();
    throw error;
  }
}
