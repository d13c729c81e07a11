import type { FastifyPluginAsync } from "fastify";

/**
 * GET /healthz: 200 once the store answers (503 otherwise), asked over a connection of its own so
 * that a pool busy with answers does not hold the check up (see Database.ping); `degraded`, with `reasons`, while the
 * service answers with less than it should (hashing stands in for the model, Redis is unreachable,
 * realtime events no longer reach the other processes or the external server). The realtime
 * section is `shared` only while every Redis connection of the realtime layer answers: its presence
 * node's, and its fan-out's publisher and subscriber (subscription in place).
 * GET /livez: the process answers (touches nothing).
 */
export const healthRoutes: FastifyPluginAsync = async (app) => {
  app.get("/livez", { schema: { hide: true } }, async () => ({ status: "ok" }));

  app.get("/healthz", { schema: { hide: true } }, async (_request, reply) => {
    const { db, limiter, embedder, realtime } = app.services;
    try {
      await db.ping();
    } catch {
      return reply.code(503).send({ status: "unavailable", store: { kind: db.kind, ok: false } });
    }
    const embeddings = embedder.status();
    const limits = limiter.status();
    const sharing = realtime.sharing();
    const reasons = [embeddings.reason, limits.reason, sharing.reason].filter((reason): reason is string => reason !== undefined);
    const degraded = embeddings.degraded || limits.degraded || sharing.degraded;
    return {
      status: degraded ? "degraded" : "ok",
      ...(degraded ? { reasons } : {}),
      store: { kind: db.kind, ok: true },
      rate_limiter: { backend: limits.backend, shared: limits.shared, degraded: limits.degraded, ...(limits.reason ? { reason: limits.reason } : {}) },
      embeddings: { provider: embeddings.provider, id: embeddings.id, degraded: embeddings.degraded, ...(embeddings.reason ? { reason: embeddings.reason } : {}) },
      realtime: { driver: realtime.driver, ...sharing },
    };
  });
};
