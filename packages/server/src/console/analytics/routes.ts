import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { operatorGuard, operatorOf } from "../authenticate-operator.js";
import { analyticsRouteSchema } from "./schemas.js";
import { showAnalytics } from "./show-analytics.js";

/** GET /api/v1/console/analytics?agent_id=&from=&to=: one agent's figures over a period. */
export const analyticsRoutes: FastifyPluginAsyncZod = async (app) => {
  const services = app.services;
  app.get("/analytics", { schema: analyticsRouteSchema, preValidation: operatorGuard(services) }, async (request) => ({
    data: await showAnalytics(services, operatorOf(request), request.query),
  }));
};
