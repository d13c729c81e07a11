import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { listWorkspaceAgents } from "../../tenants/agents.js";
import { operatorGuard, operatorOf } from "../authenticate-operator.js";
import {
  agentSnippetRouteSchema,
  createAgentRouteSchema,
  getAgentRouteSchema,
  listAgentsRouteSchema,
  publishAgentRouteSchema,
  rotateIdentitySecretRouteSchema,
  unpublishAgentRouteSchema,
  updateAgentRouteSchema,
} from "./agent-schemas.js";
import { agentSnippet } from "./agent-snippet.js";
import { createConsoleAgent, requireWorkspaceAgent, rotateConsoleIdentitySecret, setConsoleAgentPublished, updateConsoleAgent } from "./change-console-agent.js";
import { presentConsoleAgent } from "./present-console-agent.js";

/** The Agents screen: any operator reads, admins change. Under /api/v1/console/agents. */
export const agentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { services } = app;
  const { config } = services;
  const anyOperator = operatorGuard(services);
  // Their schemas require the admin role (consoleAdminSecurity): the console's role guard refuses an agent before validation.
  const adminOnly = operatorGuard(services);

  app.get("/agents", { schema: listAgentsRouteSchema, preValidation: anyOperator }, async (request) => ({
    data: (await listWorkspaceAgents(services.db, operatorOf(request).workspaceId)).map((agent) => presentConsoleAgent(agent, config)),
  }));

  app.get("/agents/:id", { schema: getAgentRouteSchema, preValidation: anyOperator }, async (request) => ({
    data: presentConsoleAgent(await requireWorkspaceAgent(services, operatorOf(request), request.params.id), config),
  }));

  app.get("/agents/:id/snippet", { schema: agentSnippetRouteSchema, preValidation: anyOperator }, async (request) => ({
    data: agentSnippet(await requireWorkspaceAgent(services, operatorOf(request), request.params.id), config),
  }));

  app.post("/agents", { schema: createAgentRouteSchema, preValidation: adminOnly }, async (request, reply) =>
    reply.code(201).send({ data: presentConsoleAgent(await createConsoleAgent(services, operatorOf(request), request.body), config) }),
  );

  app.patch("/agents/:id", { schema: updateAgentRouteSchema, preValidation: adminOnly }, async (request) => ({
    data: presentConsoleAgent(await updateConsoleAgent(services, operatorOf(request), request.params.id, request.body), config),
  }));

  app.post("/agents/:id/publish", { schema: publishAgentRouteSchema, preValidation: adminOnly }, async (request) => ({
    data: presentConsoleAgent(await setConsoleAgentPublished(services, operatorOf(request), request.params.id, true), config),
  }));

  app.post("/agents/:id/identity-secret", { schema: rotateIdentitySecretRouteSchema, preValidation: adminOnly }, async (request, reply) =>
    // The secret must not linger in a cache between here and the browser.
    reply.header("cache-control", "no-store").send({ data: await rotateConsoleIdentitySecret(services, operatorOf(request), request.params.id) }),
  );

  app.post("/agents/:id/unpublish", { schema: unpublishAgentRouteSchema, preValidation: adminOnly }, async (request) => ({
    data: presentConsoleAgent(await setConsoleAgentPublished(services, operatorOf(request), request.params.id, false), config),
  }));
};
