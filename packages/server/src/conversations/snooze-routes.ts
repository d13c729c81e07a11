import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { operatorGuard, operatorOf } from "../console/authenticate-operator.js";
import { snoozeConversation, unsnoozeConversation } from "./snooze-conversation.js";
import { snoozeConversationRouteSchema, unsnoozeConversationRouteSchema } from "./snooze-schemas.js";

/** The console's snooze of a conversation, registered in the console plugin (/api/v1/console). */
export const conversationSnoozeRoutes: FastifyPluginAsyncZod = async (app) => {
  const services = app.services;
  const guard = operatorGuard(services);

  app.post("/conversations/:id/snooze", {
    schema: snoozeConversationRouteSchema,
    preValidation: guard,
    handler: async (request) => {
      const snooze = await snoozeConversation(services, operatorOf(request), request.params.id, request.body);
      return { data: { conversation_id: request.params.id, snooze } };
    },
  });

  app.delete("/conversations/:id/snooze", {
    schema: unsnoozeConversationRouteSchema,
    preValidation: guard,
    handler: async (request) => {
      await unsnoozeConversation(services, operatorOf(request), request.params.id);
      return { data: { conversation_id: request.params.id, snooze: null } };
    },
  });
};
