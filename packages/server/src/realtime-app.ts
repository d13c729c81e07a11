import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { Registry } from "prom-client";
import type { Config } from "./config/config.js";
import { registerErrorHandling } from "./http/error-handler.js";
import { refuseRequestsWhileClosing } from "./http/refuse-while-closing.js";
import { serverOptions } from "./http/server-options.js";
import { registerHttpMetrics } from "./observability/http-metrics.js";
import { registerRealtimeMetrics } from "./observability/realtime-metrics.js";
import type { RealtimeServer } from "./realtime/realtime-server.js";
import { attachRealtimeServer } from "./realtime/register-realtime.js";

export interface RealtimeAppParts {
  config: Config;
  server: RealtimeServer;
  metrics: Registry;
  loggerInstance?: FastifyBaseLogger;
}

/**
 * `frontdesk realtime`'s HTTP application: the embedded realtime server alone (WebSockets on
 * `/app/{key}`, the Pusher HTTP API under `/apps/{id}`), with `GET /healthz`, `/livez` and
 * `/metrics`. No store, no widget API: it scales connections apart from the service.
 */
export async function buildRealtimeApp(parts: RealtimeAppParts): Promise<FastifyInstance> {
  const { config, server, metrics } = parts;
  const app = Fastify({
    ...(parts.loggerInstance ? { loggerInstance: parts.loggerInstance } : { logger: false }),
    trustProxy: config.http.trustedProxies.length > 0 ? config.http.trustedProxies : false,
    routerOptions: { ignoreTrailingSlash: true },
    requestIdHeader: "x-request-id",
    ...serverOptions(config.http.timeouts),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  refuseRequestsWhileClosing(app);
  registerHttpMetrics(app, metrics);
  registerRealtimeMetrics(metrics, () => server.connectionCount);

  app.get("/livez", { schema: { hide: true } }, async () => ({ status: "ok" }));
  app.get("/healthz", { schema: { hide: true } }, async () => {
    const sharing = server.sharing();
    return {
      status: sharing.degraded ? "degraded" : "ok",
      ...(sharing.reason ? { reasons: [sharing.reason] } : {}),
      realtime: { app_id: server.credentials.appId, connections: server.connectionCount, ...sharing },
    };
  });
  await attachRealtimeServer(app, server, () => new Date());
  await app.ready();
  return app;
}
