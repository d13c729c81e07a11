import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { TurnAdmission } from "../event-loop/turn-admission.js";
import { sessionGuard, sessionOf } from "../widget/route-guards.js";
import { openAnswer } from "./answer-message-once.js";
import { messagesRouteSchema, messagesStreamRouteSchema } from "./schemas.js";
import { SseWriter } from "./sse-writer.js";

/** Questions that start their work (session check, validation, the first statement) in one turn of the event loop. */
const QUESTIONS_STARTED_PER_TURN = 16;

/** POST /messages and /messages/stream, mounted under /api/v1/widget; they share the per-token budget with events. */
export const messageRoutes: FastifyPluginAsyncZod = async (app) => {
  const services = app.services;
  // Questions arriving together (500 answers ended together) start 16 to a turn of the event loop,
  // so that everything else the server does is served between the slices (see TurnAdmission).
  const admission = new TurnAdmission(QUESTIONS_STARTED_PER_TURN);
  const admitted = () => admission.admit();

  app.post("/messages", {
    schema: messagesRouteSchema,
    onRequest: admitted,
    preValidation: sessionGuard(services, "session"),
    handler: async (request, reply) => {
      const session = sessionOf(request);
      const controller = new AbortController();
      reply.raw.on("close", () => {
        if (!reply.raw.writableFinished) controller.abort();
      });
      let content = "";
      let citations: { id: number; url: string }[] = [];
      const events = await openAnswer(services, session, request.body, request.headers["idempotency-key"], controller.signal);
      for await (const event of events) {
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
    onRequest: admitted,
    preValidation: sessionGuard(services, "session"),
    handler: async (request, reply) => {
      const session = sessionOf(request);
      const conversationId = session.conversation.id;
      const controller = new AbortController();
      // The key's refusals (a reused key, a request still in progress) are JSON answers, before the stream starts.
      const events = await openAnswer(services, session, request.body, request.headers["idempotency-key"], controller.signal);
      const sse = new SseWriter(reply, () => controller.abort(), services.config.http.sseHeartbeatMs);
      try {
        for await (const event of events) {
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
