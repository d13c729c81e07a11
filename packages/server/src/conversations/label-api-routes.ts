import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { listWorkspaceLabels, presentLabel } from "../labels/labels.js";
import { enforceRateLimit } from "../ratelimit/enforce-rate-limit.js";
import type { ApiToken } from "../tenants/api-tokens.js";
import { authenticateApiToken } from "../tenants/authenticate-api-token.js";
import { countLabelledConversations } from "./conversation-label-repository.js";
import { labelConversation, unlabelConversation } from "./label-conversation.js";
import { deleteConversationLabelWithTokenRouteSchema, listLabelsWithTokenRouteSchema, putConversationLabelWithTokenRouteSchema } from "./label-schemas.js";

/**
 * Labels for automations, under /api/v1/workspace: a receiver of the webhooks labels a conversation
 * with a workspace API token holding `conversations:label` (the Sources API's model: the token is
 * checked against the store on every call, and shares the Sources API's budget per token).
 */
export const conversationLabelApiRoutes: FastifyPluginAsyncZod = async (app) => {
  const services = app.services;

  app.addHook("preValidation", async (request: FastifyRequest, reply: FastifyReply) => {
    const token = await authenticateApiToken(services.db, request.headers.authorization, "conversations:label");
    request.apiToken = token;
    await enforceRateLimit(services.limiter, reply, ["sources", token.id]);
  });
  const tokenOf = (request: FastifyRequest): ApiToken => {
    if (!request.apiToken) throw new Error("API token guard did not run");
    return request.apiToken;
  };

  app.get("/labels", { schema: listLabelsWithTokenRouteSchema }, async (request) => {
    const { workspaceId } = tokenOf(request);
    const [labels, counts] = await Promise.all([listWorkspaceLabels(services.db, workspaceId), countLabelledConversations(services.db, workspaceId)]);
    return { data: labels.map((label) => presentLabel(label, counts.get(label.id) ?? 0)) };
  });

  app.put("/conversations/:id/labels/:label_id", { schema: putConversationLabelWithTokenRouteSchema }, async (request) => {
    const token = tokenOf(request);
    const scope = { workspaceId: token.workspaceId, conversationId: request.params.id, labelId: request.params.label_id };
    return { data: await labelConversation(services, scope, { kind: "api_token", id: token.id, name: token.name }) };
  });

  app.delete("/conversations/:id/labels/:label_id", { schema: deleteConversationLabelWithTokenRouteSchema }, async (request) => {
    const scope = { workspaceId: tokenOf(request).workspaceId, conversationId: request.params.id, labelId: request.params.label_id };
    return { data: await unlabelConversation(services, scope) };
  });
};
