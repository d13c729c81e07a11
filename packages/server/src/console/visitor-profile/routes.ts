import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { operatorGuard, operatorOf } from "../authenticate-operator.js";
import { showVisitorProfileRouteSchema } from "./schemas.js";
import { showVisitorProfile } from "./show-visitor-profile.js";

/** GET /api/v1/console/conversations/{id}/visitor: the visitor's history and profile beside the conversation. */
export const visitorProfileRoutes: FastifyPluginAsyncZod = async (app) => {
  const services = app.services;
  app.get("/conversations/:id/visitor", { schema: showVisitorProfileRouteSchema, preValidation: operatorGuard(services) }, async (request) => ({
    data: await showVisitorProfile(services, operatorOf(request), request.params.id),
  }));
};
