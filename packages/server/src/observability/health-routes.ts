import type { FastifyPluginAsync } from "fastify";

/** GET /healthz: 200 once the store answers, 503 otherwise. GET /livez: the process answers (touches nothing). */
export const healthRoutes: FastifyPluginAsync = async (app) => {
  app.get("/livez", { schema: { hide: true } }, async () => ({ status: "ok" }));

  app.get("/healthz", { schema: { hide: true } }, async (_request, reply) => {
    const { db, limiter, embedder } = app.services;
    try {
      await db.query("SELECT 1");
    } catch {
      return reply.code(503).send({ status: "unavailable", store: { kind: db.kind, ok: false } });
    }
    const embeddings = embedder.status();
    return {
      status: embeddings.degraded ? "degraded" : "ok",
      store: { kind: db.kind, ok: true },
      rate_limiter: limiter.backend,
      embeddings: { provider: embeddings.provider, id: embeddings.id, degraded: embeddings.degraded, ...(embeddings.reason ? { reason: embeddings.reason } : {}) },
    };
  });
};
