import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { bearerToken } from "../auth/session-token.js";
import { AppError } from "../http/app-error.js";
import { enforceRateLimit } from "../ratelimit/enforce-rate-limit.js";
import { findVisitorWorkspace } from "../conversations/visitor-data.js";
import { servicesDeletionAnnouncer } from "./announce-deleted-conversations.js";
import { eraseVisitor } from "./erase-visitor.js";
import { eraseMeRouteSchema } from "./schemas.js";

/**
 * DELETE /api/v1/widget/me: the visitor's own erasure. Its guard checks the token itself (signature,
 * issuer, expiry, claims) but not that its conversation still exists, unlike the other session
 * routes: a token whose visitor is gone is the token of an erasure already done, and answers 204
 * again (see the route's description), while every other route refuses it.
 */
export const visitorErasureRoutes: FastifyPluginAsyncZod = async (app) => {
  const services = app.services;
  const announce = servicesDeletionAnnouncer(services);

  app.delete("/me", {
    schema: eraseMeRouteSchema,
    preValidation: async (request, reply) => {
      const token = bearerToken(request.headers.authorization);
      if (!token) throw new AppError("missing_token", "Send the session token from init as 'Authorization: Bearer <token>'.");
      const claims = await services.sessionTokens.verify(token);
      await enforceRateLimit(services.limiter, reply, ["session", token.slice(token.lastIndexOf(".") + 1)]);
      request.erasureClaims = { agentId: claims.agent_id, visitorId: claims.visitor_id };
    },
    handler: async (request, reply) => {
      const claims = request.erasureClaims;
      if (!claims) throw new Error("erasure guard did not run");
      const workspaceId = await findVisitorWorkspace(services.db, claims.visitorId, claims.agentId);
      if (workspaceId !== null) {
        await eraseVisitor({ db: services.db, announce }, { workspaceId, agentId: claims.agentId, visitorId: claims.visitorId, requestedBy: "visitor" });
      }
      return reply.code(204).send(null);
    },
  });
};

declare module "fastify" {
  interface FastifyRequest {
    erasureClaims?: { agentId: string; visitorId: string };
  }
}
