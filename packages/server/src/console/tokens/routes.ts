import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { presentToken } from "../../admin/present.js";
import { AppError } from "../../http/app-error.js";
import { listWorkspaceApiTokens, revokeApiToken } from "../../tenants/api-tokens.js";
import { createApiToken } from "../../tenants/create-api-token.js";
import { tokenEvent } from "../../tenants/settings-events.js";
import { operatorGuard, operatorOf } from "../authenticate-operator.js";
import { createTokenRouteSchema, listTokensRouteSchema, revokeTokenRouteSchema } from "./schemas.js";

/**
 * The API tokens page (admins only), under /api/v1/console/tokens: the same issuing and revoking
 * as `frontdesk admin token create|revoke|list`, scoped to the operator's workspace.
 */
export const tokenRoutes: FastifyPluginAsyncZod = async (app) => {
  const services = app.services;
  // Their schemas require the admin role (consoleAdminSecurity): the console's role guard refuses an agent before validation.
  const guard = operatorGuard(services);

  app.get("/tokens", { schema: listTokensRouteSchema, preValidation: guard }, async (request) => {
    const operator = operatorOf(request);
    return { data: (await listWorkspaceApiTokens(services.db, operator.workspaceId)).map(presentToken) };
  });

  app.post("/tokens", { schema: createTokenRouteSchema, preValidation: guard }, async (request, reply) => {
    const operator = operatorOf(request);
    const token = await createApiToken(services.db, { workspaceId: operator.workspaceId, ...request.body });
    await services.events.raise(services.db, tokenEvent("token.created", token));
    return reply.status(201).send({ data: { ...presentToken(token), token: token.token } });
  });

  app.delete("/tokens/:id", { schema: revokeTokenRouteSchema, preValidation: guard }, async (request) => {
    const operator = operatorOf(request);
    // The workspace's own tokens only: another workspace's id is unknown here (404, never 403).
    const owned = (await listWorkspaceApiTokens(services.db, operator.workspaceId)).some((token) => token.id === request.params.id);
    const revoked = owned ? await revokeApiToken(services.db, request.params.id) : null;
    if (!revoked) throw new AppError("token_not_found", `No API token ${request.params.id} in this workspace.`);
    await services.events.raise(services.db, tokenEvent("token.revoked", revoked));
    return { data: presentToken(revoked) };
  });
};
