import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ipGuard, sessionGuard, sessionOf, sessionOnly } from "../widget/route-guards.js";
import { rateAnswer } from "./rate-answer.js";
import { closeVisitorConversation, listVisitorMessages, markVisitorSeen, readVisitorConversation } from "./visitor-conversation.js";
import { answerFeedbackRouteSchema, closeVisitorConversationRouteSchema, markVisitorSeenRouteSchema, visitorConversationRouteSchema, visitorMessagesRouteSchema } from "./widget-schemas.js";

/**
 * The visitor's `/conversation/*` routes, mounted under /api/v1/widget; they count against the session
 * token's budget. A rating of an answer (`/messages/{id}/feedback`) counts against the client IP's, as
 * the conversation's satisfaction rating does.
 */
export const visitorConversationRoutes: FastifyPluginAsyncZod = async (app) => {
  const services = app.services;

  app.get("/conversation", {
    schema: visitorConversationRouteSchema,
    preValidation: sessionGuard(services, "session"),
    handler: async (request) => ({ data: await readVisitorConversation(services, sessionOf(request)) }),
  });

  app.get("/conversation/messages", {
    schema: visitorMessagesRouteSchema,
    preValidation: sessionGuard(services, "session"),
    handler: async (request) => ({ data: await listVisitorMessages(services, sessionOf(request), request.query) }),
  });

  app.post("/conversation/close", {
    schema: closeVisitorConversationRouteSchema,
    preValidation: sessionGuard(services, "session"),
    handler: async (request) => ({ data: await closeVisitorConversation(services, sessionOf(request)) }),
  });

  app.post("/conversation/seen", {
    schema: markVisitorSeenRouteSchema,
    preValidation: sessionGuard(services, "session"),
    handler: async (request, reply) => {
      await markVisitorSeen(services, sessionOf(request), request.body.seq);
      return reply.code(204).send(null);
    },
  });

  app.post("/messages/:message_id/feedback", {
    schema: answerFeedbackRouteSchema,
    preValidation: [ipGuard(services, "satisfaction"), sessionOnly(services)],
    handler: async (request) => ({ data: await rateAnswer(services, sessionOf(request), request.params.message_id, request.body) }),
  });
};
