import type { FastifyInstance } from "fastify";

const PREFLIGHT_MAX_AGE_SECONDS = 86_400;
/** What a browser sends as Origin: visible ASCII (hosts are punycode), or `null`. Anything else is not echoed. */
const ECHOABLE_ORIGIN = /^[\x21-\x7e]{1,2048}$/;

/**
 * CORS for the widget API, which is embedded cross-origin: preflights answer 204 and every
 * answer echoes the caller's origin (when it can be one). Which origins may *start* a session is
 * checked by init.
 */
export function registerWidgetCors(app: FastifyInstance, prefix: string): void {
  app.addHook("onRequest", async (request, reply) => {
    if (!request.url.startsWith(prefix)) return;
    const origin = request.headers.origin;
    if (origin && ECHOABLE_ORIGIN.test(origin)) {
      reply.header("Access-Control-Allow-Origin", origin);
      reply.header("Vary", "Origin");
      reply.header("Access-Control-Expose-Headers", "X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After");
    }
    if (request.method === "OPTIONS") {
      reply
        .header("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS")
        .header("Access-Control-Allow-Headers", "Authorization, Content-Type, Idempotency-Key")
        .header("Access-Control-Max-Age", String(PREFLIGHT_MAX_AGE_SECONDS))
        .code(204)
        .send();
    }
  });
}
