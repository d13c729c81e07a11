import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { operatorGuard, operatorOf } from "../console/authenticate-operator.js";
import { assignConversation } from "./assign-conversation.js";
import { closeConversation } from "./close-conversation.js";
import type { ConversationState } from "./conversation-state-repository.js";
import {
  assignConversationRouteSchema,
  closeConversationRouteSchema,
  operatorTypingRouteSchema,
  releaseConversationRouteSchema,
  replyToConversationRouteSchema,
} from "./console-schemas.js";
import { releaseConversation } from "./release-conversation.js";
import { replyAsOperator } from "./reply-as-operator.js";
import { signalOperatorTyping } from "./signal-operator-typing.js";

const presentState = (state: ConversationState) => ({
  id: state.id,
  status: state.status,
  assignee: state.assignee,
  human_requested_at: state.humanRequestedAt,
  updated_seq: state.updatedSeq,
});

/** The console's conversation actions, registered in the console plugin (/api/v1/console). */
export const conversationActionRoutes: FastifyPluginAsyncZod = async (app) => {
  const services = app.services;
  const guard = operatorGuard(services);

  app.post("/conversations/:id/assign", {
    schema: assignConversationRouteSchema,
    preValidation: guard,
    handler: async (request) => ({
      data: presentState(await assignConversation(services, operatorOf(request), request.params.id, request.body.operator_id)),
    }),
  });

  app.post("/conversations/:id/messages", {
    schema: replyToConversationRouteSchema,
    preValidation: guard,
    handler: async (request, reply) =>
      reply.code(201).send({
        data: await replyAsOperator(services, operatorOf(request), request.params.id, request.body.content, request.body.attachment_ids, request.headers["idempotency-key"]),
      }),
  });

  app.post("/conversations/:id/release", {
    schema: releaseConversationRouteSchema,
    preValidation: guard,
    handler: async (request) => ({ data: presentState(await releaseConversation(services, operatorOf(request), request.params.id)) }),
  });

  app.post("/conversations/:id/close", {
    schema: closeConversationRouteSchema,
    preValidation: guard,
    handler: async (request) => {
      const operator = operatorOf(request);
      return { data: presentState(await closeConversation(services, { workspaceId: operator.workspaceId, conversationId: request.params.id, by: "operator" })) };
    },
  });

  app.post("/conversations/:id/typing", {
    schema: operatorTypingRouteSchema,
    preValidation: guard,
    handler: async (request, reply) => {
      await signalOperatorTyping(services, operatorOf(request), request.params.id, request.body.typing ?? true);
      return reply.code(204).send(null);
    },
  });
};
