import type { FastifyInstance } from "fastify";

/** Probes that load balancers and scrapers call every few seconds: logged at debug, not info. */
const PROBE_PATHS = new Set(["/livez", "/healthz", "/readyz", "/metrics"]);

/**
 * One log line per request, written when its answer is sent: method, path, status and duration,
 * with the request id pino already carries. The query string is never logged (a link may carry a
 * token in it). Replaces Fastify's two lines per request, whose request and response objects a
 * terminal printed over about sixteen lines.
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook("onResponse", async (request, reply) => {
    const path = request.url.split("?", 1)[0] ?? "/";
    const ms = Math.round(reply.elapsedTime * 10) / 10;
    const line = { method: request.method, path, status: reply.statusCode, ms };
    const message = `${request.method} ${path} ${reply.statusCode} ${ms} ms`;
    if (PROBE_PATHS.has(path)) request.log.debug(line, message);
    else request.log.info(line, message);
  });
}
