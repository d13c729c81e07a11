import type { FastifyInstance } from "fastify";

const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * CORS for the console API: only `allowedOrigin` (FRONTDESK_PUBLIC_URL's origin) may read answers
 * and send credentials; a preflight from any other origin is answered without any
 * Access-Control-Allow-* header, so the browser refuses the request.
 */
export function registerConsoleCors(app: FastifyInstance, prefix: string, allowedOrigin: string): void {
  app.addHook("onRequest", async (request, reply) => {
    if (!request.url.startsWith(prefix) || !["", "/", "?"].includes(request.url.charAt(prefix.length))) return;
    reply.header("Vary", "Origin");
    const allowed = request.headers.origin === allowedOrigin;
    if (allowed) {
      reply.header("Access-Control-Allow-Origin", allowedOrigin);
      reply.header("Access-Control-Allow-Credentials", "true");
      reply.header("Access-Control-Expose-Headers", "X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After");
    }
    if (request.method === "OPTIONS") {
      if (allowed) {
        reply
          .header("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE, OPTIONS")
          .header("Access-Control-Allow-Headers", "Content-Type")
          .header("Access-Control-Max-Age", String(PREFLIGHT_MAX_AGE_SECONDS));
      }
      await reply.code(204).send();
    }
  });
}
