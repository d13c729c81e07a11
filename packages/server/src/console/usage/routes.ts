import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { operatorGuard, operatorOf } from "../authenticate-operator.js";
import { workspaceUsageRouteSchema } from "./schemas.js";
import { showWorkspaceUsage } from "./show-workspace-usage.js";

/** GET /api/v1/console/workspace/usage: the monthly conversation quota and its use. */
export const usageRoutes: FastifyPluginAsyncZod = async (app) => {
  const services = app.services;
  app.get("/workspace/usage", { schema: workspaceUsageRouteSchema, preValidation: operatorGuard(services) }, async (request) => ({
    data: await showWorkspaceUsage(services, operatorOf(request)),
  }));
};
