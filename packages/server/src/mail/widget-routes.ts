import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { enforceRateLimit } from "../ratelimit/enforce-rate-limit.js";
import { sessionGuard, sessionOf } from "../widget/route-guards.js";
import { requestTranscript } from "./request-transcript.js";
import { transcriptRouteSchema } from "./widget-schemas.js";

/** The visitor's e-mail route, mounted under /api/v1/widget. */
export const mailWidgetRoutes: FastifyPluginAsyncZod = async (app) => {
  const services = app.services;

  app.post("/conversation/transcript", {
    schema: transcriptRouteSchema,
    preValidation: sessionGuard(services, "session"),
    handler: async (request, reply) => {
      const session = sessionOf(request);
      // Each call is an e-mail sent: counted per conversation, whatever token asks, and per client IP.
      await enforceRateLimit(services.limiter, reply, ["transcripts", session.conversation.id], ["transcriptsPerIp", request.ip]);
      return reply.code(202).send({ data: await requestTranscript(services, session, request.body.email) });
    },
  });
};
