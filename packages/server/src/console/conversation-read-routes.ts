import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { operatorGuard, operatorOf } from "./authenticate-operator.js";
import {
  listConversationsRouteSchema,
  listMessagesSinceRouteSchema,
  markConversationReadRouteSchema,
  showConversationRouteSchema,
} from "./conversation-read-schemas.js";
import { listConversations } from "./list-conversations.js";
import { listMessagesSince } from "./list-messages-since.js";
import { markConversationRead } from "./mark-conversation-read.js";
import { showConversation } from "./show-conversation.js";

/** The console's conversation reads (and read markers), under /api/v1/console/conversations. */
export const conversationReadRoutes: FastifyPluginAsyncZod = async (app) => {
  const services = app.services;
  const guard = operatorGuard(services);

  app.get("/conversations", { schema: listConversationsRouteSchema, preValidation: guard }, async (request) =>
    listConversations(services, operatorOf(request), request.query),
  );

  app.get("/conversations/:id", { schema: showConversationRouteSchema, preValidation: guard }, async (request) => ({
    data: await showConversation(services, operatorOf(request), request.params.id),
  }));

  app.get("/conversations/:id/messages", { schema: listMessagesSinceRouteSchema, preValidation: guard }, async (request) => ({
    data: await listMessagesSince(services, operatorOf(request), request.params.id, request.query),
  }));

  app.post("/conversations/:id/read", { schema: markConversationReadRouteSchema, preValidation: guard }, async (request) => ({
    data: await markConversationRead(services, operatorOf(request), request.params.id, request.body.seq ?? null),
  }));
};
