import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { sessionGuard, sessionOf } from "../widget/route-guards.js";
import { answerMessage } from "./answer-message.js";
import { messagesRouteSchema, messagesStreamRouteSchema } from "./schemas.js";
import { SseWriter } from "./sse-writer.js";

/** POST /messages and /messages/stream, mounted under /api/v1/widget; they share the per-token budget with events. */
export const messageRoutes: FastifyPluginAsyncZod = async (app) => {
  const services = app.services;

  app.post("/messages", {
    schema: messagesRouteSchema,
    preValidation: sessionGuard(services, "session"),
    handler: async (request, reply) => {
      const session = sessionOf(request);
      const controller = new AbortController();
      reply.raw.on("close", () => {
        if (!reply.raw.writableFinished) controller.abort();
      });
      let content = "";
      let citations: { id: number; url: string }[] = [];
      for await (const event of answerMessage(services, session, request.body, controller.signal)) {
        if (event.type === "token") content += event.token;
        else if (event.type === "citations") citations = event.citations;
        else if (event.type === "done") {
          return {
            data: {
              message_id: event.messageId,
              conversation_id: session.conversation.id,
              content: event.awaitingHuman || event.discarded ? "" : content,
              citations,
              low_confidence: event.lowConfidence,
              ...(event.curated ? { curated: true } : {}),
              ...(event.awaitingHuman ? { awaiting_human: true } : {}),
              ...(event.discarded ? { discarded: true } : {}),
            },
          };
        }
      }
      throw new Error("the answer ended without a done event");
    },
  });

  app.post("/messages/stream", {
    schema: messagesStreamRouteSchema,
    preValidation: sessionGuard(services, "session"),
    handler: async (request, reply) => {
      const session = sessionOf(request);
      const conversationId = session.conversation.id;
      const controller = new AbortController();
      const sse = new SseWriter(reply, () => controller.abort(), services.config.http.sseHeartbeatMs);
      try {
        for await (const event of answerMessage(services, session, request.body, controller.signal)) {
          if (event.type === "token") sse.send({ event: "token", token: event.token });
          else if (event.type === "citations") sse.send({ event: "citations", citations: event.citations });
          else if (event.type === "error") sse.send({ event: "error", code: event.code, message: event.message });
          else if (event.awaitingHuman) sse.send({ event: "done", conversation_id: conversationId, awaiting_human: true });
          else if (event.discarded) sse.send({ event: "done", conversation_id: conversationId, discarded: true });
          else {
            const curated = event.curated ? { curated: true } : {};
            sse.send({ event: "done", conversation_id: conversationId, message_id: event.messageId, low_confidence: event.lowConfidence, ...curated });
          }
        }
      } catch (error) {
        request.log.error({ err: error }, "streamed answer failed");
        sse.send({ event: "error", code: "internal_error", message: "Something went wrong on our side. Please retry." });
        sse.send({ event: "done", conversation_id: conversationId });
      } finally {
        sse.end();
      }
    },
  });
};
