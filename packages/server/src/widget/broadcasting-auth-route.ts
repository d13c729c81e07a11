import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponse, jsonResponse, sessionErrors, sessionSecurity } from "../openapi/route-responses.js";
import { authorizeChannel } from "./authorize-channel.js";
import { sessionGuard, sessionOf } from "./route-guards.js";

const broadcastingAuthBodySchema = z.object({
  socket_id: z.string().regex(/^\d{1,20}\.\d{1,20}$/, "must be the socket id the realtime server gave (digits.digits)"),
  channel_name: z.string().min(1).max(200),
});

const broadcastingAuthResponseSchema = z.object({
  auth: z.string().describe("`app_key:signature`, to send as `auth` in `pusher:subscribe`."),
});

const broadcastingAuthRouteSchema = {
  tags: ["widget"],
  operationId: "authorizeBroadcastingChannel",
  summary: "Authorise the visitor's realtime subscription",
  description:
    "Signs a subscription of the realtime connection `socket_id` to `private-conversation.{conversation_id}` of the " +
    "session token's conversation, as pusher-js and laravel-echo ask for it (form-encoded, or JSON). Any other channel is 403. " +
    "Counts against the session token's budget.",
  security: sessionSecurity,
  body: broadcastingAuthBodySchema,
  response: {
    200: jsonResponse("The subscription's signature.", broadcastingAuthResponseSchema),
    ...sessionErrors,
    403: errorResponse("`channel_forbidden`: a session token authorises only its own conversation's channel."),
    503: errorResponse(
      "`service_unavailable`: the socket is held by another process and the grant could not reach it through Redis (a signature that could never be revoked is not given); retry.",
    ),
  },
};

/**
 * The visitor's channel authorisation, mounted under /api/v1/widget. Its own scope reads the
 * form-encoded body pusher-js sends by default; JSON works too.
 */
export const broadcastingAuthRoute: FastifyPluginAsyncZod = async (app) => {
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(typeof body === "string" ? body : body.toString("utf8"))));
  });

  app.post("/broadcasting/auth", {
    schema: broadcastingAuthRouteSchema,
    preValidation: sessionGuard(app.services, "session"),
    handler: async (request) => authorizeChannel(app.services, sessionOf(request), { socketId: request.body.socket_id, channelName: request.body.channel_name }),
  });
};
