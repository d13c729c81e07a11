import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { findWorkspaceModelProvider } from "../../tenants/workspace-model-providers.js";
import { operatorGuard, operatorOf } from "../authenticate-operator.js";
import { deleteModelProvider, presentModelProviderSettings, putModelProvider, testConsoleModelProvider } from "./manage-model-provider.js";
import { deleteModelProviderRouteSchema, getModelProviderRouteSchema, putModelProviderRouteSchema, testModelProviderRouteSchema } from "./model-provider-schemas.js";

/** The workspace's answer model provider, under /api/v1/console/workspace/model-provider: admins only (the guard, before the body is read). */
export const modelProviderRoutes: FastifyPluginAsyncZod = async (app) => {
  const { services } = app;
  // Their schemas require the admin role (consoleAdminSecurity): the console's role guard refuses an agent before validation.
  const admin = operatorGuard(services);

  app.get("/workspace/model-provider", { schema: getModelProviderRouteSchema, preValidation: admin }, async (request) => ({
    data: presentModelProviderSettings(services, await findWorkspaceModelProvider(services.db, operatorOf(request).workspaceId)),
  }));

  app.put("/workspace/model-provider", { schema: putModelProviderRouteSchema, preValidation: admin }, async (request) => ({
    data: await putModelProvider(services, operatorOf(request).workspaceId, request.body),
  }));

  app.delete("/workspace/model-provider", { schema: deleteModelProviderRouteSchema, preValidation: admin }, async (request, reply) => {
    await deleteModelProvider(services, operatorOf(request).workspaceId);
    return reply.code(204).send(null);
  });

  app.post("/workspace/model-provider/test", { schema: testModelProviderRouteSchema, preValidation: admin }, async (request) => ({
    data: await testConsoleModelProvider(services, operatorOf(request).workspaceId, request.body),
  }));
};
