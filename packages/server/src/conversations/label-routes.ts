import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { operatorGuard, operatorOf } from "../console/authenticate-operator.js";
import { labelConversation, unlabelConversation } from "./label-conversation.js";
import { deleteConversationLabelRouteSchema, putConversationLabelRouteSchema } from "./label-schemas.js";

/** Labels on a conversation, in the console (/api/v1/console/conversations/{id}/labels/{label_id}): any operator puts them on and takes them off. */
export const conversationLabelRoutes: FastifyPluginAsyncZod = async (app) => {
  const services = app.services;
  const guard = operatorGuard(services);

  app.put("/conversations/:id/labels/:label_id", { schema: putConversationLabelRouteSchema, preValidation: guard }, async (request) => {
    const operator = operatorOf(request);
    const scope = { workspaceId: operator.workspaceId, conversationId: request.params.id, labelId: request.params.label_id };
    return { data: await labelConversation(services, scope, { kind: "operator", id: operator.id, name: operator.name }) };
  });

  app.delete("/conversations/:id/labels/:label_id", { schema: deleteConversationLabelRouteSchema, preValidation: guard }, async (request) => {
    const scope = { workspaceId: operatorOf(request).workspaceId, conversationId: request.params.id, labelId: request.params.label_id };
    return { data: await unlabelConversation(services, scope) };
  });
};
