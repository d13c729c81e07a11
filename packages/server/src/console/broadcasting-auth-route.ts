import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { componentSchemas } from "../openapi/component-schemas.js";
import { errorResponse, errors, jsonResponse } from "../openapi/route-responses.js";
import { operatorGuard, operatorOf, operatorSessionOf } from "./authenticate-operator.js";
import { authorizeOperatorChannel } from "./authorize-operator-channel.js";
import { consoleErrorResponses, consoleSecurity } from "./console-responses.js";

const operatorChannelAuthBodySchema = z.object({
  socket_id: z.string().regex(/^\d{1,20}\.\d{1,20}$/, "must be the socket id the realtime server gave (digits.digits)"),
  channel_name: z.string().min(1).max(200),
});

const operatorChannelAuthResponseSchema = z.object({
  auth: z.string().describe("`app_key:signature`, to send as `auth` in `pusher:subscribe`."),
  channel_data: z
    .string()
    .optional()
    .describe(
      "Presence channels only: `{\"user_id\": operator id, \"user_info\": {\"name\"}}` (`{\"name\", \"role\"}` on `presence-conversation-operators.{id}`) as JSON, to send as `channel_data` unchanged.",
    ),
});
componentSchemas.add(operatorChannelAuthResponseSchema, { id: "OperatorChannelAuthorization" });

/**
 * The operator's channel authorisation, mounted under /api/v1/console. Its own scope reads the
 * form-encoded body pusher-js sends by default; JSON works too.
 */
export const operatorBroadcastingAuthRoute: FastifyPluginAsyncZod = async (app) => {
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(typeof body === "string" ? body : body.toString("utf8"))));
  });

  app.post("/broadcasting/auth", {
    schema: {
      tags: ["console"],
      operationId: "authorizeOperatorChannel",
      summary: "Authorise the operator's realtime subscription",
      description:
        "Signs a subscription of the realtime connection `socket_id` to `private-workspace.{workspace}`, `presence-operators.{workspace}` " +
        "(as the signed-in operator: the server writes `channel_data`), or `private-conversation.{id}` and `presence-conversation-operators.{id}` " +
        "(who else has it open, as the operator with its name and role; members whisper `client-typing`) of a conversation of the operator's " +
        "workspace, as pusher-js and laravel-echo ask for it (form-encoded, or JSON). Anything else is 403. Needs `Origin` equal to FRONTDESK_PUBLIC_URL's origin.",
      security: consoleSecurity,
      body: operatorChannelAuthBodySchema,
      response: {
        200: jsonResponse("The subscription's signature.", operatorChannelAuthResponseSchema),
        400: errors.invalidJson,
        401: consoleErrorResponses.unauthenticated,
        403: errorResponse(
          "`channel_forbidden`: not a channel of the operator's workspace (another workspace's conversation and an unknown one alike); " +
            "`csrf_origin_mismatch`: `Origin` is not FRONTDESK_PUBLIC_URL's origin.",
        ),
        413: errors.payloadTooLarge,
        415: errors.unsupportedMediaType,
        422: errors.validationFailed,
        500: errors.internal,
        503: errorResponse(
          "`service_unavailable`: the socket is held by another process and the grant could not reach it through Redis (a signature that could never be revoked is not given); retry.",
        ),
      },
    },
    preValidation: operatorGuard(app.services),
    handler: async (request) =>
      authorizeOperatorChannel(
        app.services,
        { operator: operatorOf(request), sessionId: operatorSessionOf(request) },
        { socketId: request.body.socket_id, channelName: request.body.channel_name },
      ),
  });
};
