import { setupBodySchema, setupResponseSchema, setupStatusBodySchema, setupStatusResponseSchema } from "@frontdesk/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { componentSchemas } from "../../openapi/component-schemas.js";
import { errorResponse, errors, jsonResponse } from "../../openapi/route-responses.js";
import { enforceRateLimit } from "../../ratelimit/enforce-rate-limit.js";
import { requireSameOrigin } from "../authenticate-operator.js";
import { presentSignedInOperator } from "../schemas.js";
import { SESSION_COOKIE_NAME, sessionCookieOptions } from "../session-cookie.js";
import { checkSetupToken, completeSetup } from "./complete-setup.js";

componentSchemas.add(setupBodySchema, { id: "SetupRequest", description: "The first admin, and the workspace's name, with the setup link's token." });
componentSchemas.add(setupStatusBodySchema, { id: "SetupStatusRequest", description: "The setup link's token, to check." });

const tags = ["console"];

/**
 * The first run (no operator yet): check a setup link, and use it to make the first admin. Under
 * /api/v1/console. The token travels in request bodies only, never in a URL (which request logs,
 * proxies and browser histories keep): the link carries it in its fragment, which the page reads.
 */
export const setupRoutes: FastifyPluginAsyncZod = async (app) => {
  const { services } = app;

  app.post("/setup/status", {
    schema: {
      tags,
      operationId: "checkConsoleSetup",
      summary: "Check a setup link",
      description:
        "Whether the token of the setup link `serve` printed (while no operator exists) can still create the first admin: " +
        "`reason` `setup_done` when an operator exists (sign in instead), `token_invalid` when the token is unknown, used or expired. " +
        "Changes nothing; a POST so that the token rides in the body, never in a URL. Limited with sign-in's per-IP budget.",
      body: setupStatusBodySchema,
      response: {
        200: jsonResponse("What the token can do.", setupStatusResponseSchema),
        400: errors.invalidJson,
        413: errors.payloadTooLarge,
        415: errors.unsupportedMediaType,
        422: errorResponse("`validation_failed`: `token` is missing or too long."),
        429: errors.rateLimited,
        500: errors.internal,
      },
    },
    handler: async (request, reply) => {
      await enforceRateLimit(services.limiter, reply, ["loginPerIp", request.ip]);
      return { data: await checkSetupToken(services.db, request.body.token, services.now()) };
    },
  });

  app.post("/setup", {
    schema: {
      tags,
      operationId: "completeConsoleSetup",
      summary: "Create the workspace and its first admin",
      description:
        "With the token of the setup link `serve` prints while no operator exists (valid 24 hours, once): creates the workspace " +
        "(or adopts the oldest one, made with the CLI before the first run, renaming it when `workspace_name` is given) and its first admin " +
        "with the chosen password, and signs the admin in (sets the session cookie, as `createConsoleSession` does). The token is spent " +
        "and every other setup link stops working. Limited with sign-in's per-IP budget. Needs `Origin` equal to FRONTDESK_PUBLIC_URL's origin.",
      body: setupBodySchema,
      response: {
        201: jsonResponse("Set up: the admin is signed in (the session cookie is set).", setupResponseSchema),
        400: errorResponse("`setup_token_invalid`: the link's token is unknown, used or expired (restart `serve` for a new link); `invalid_json`: the body is not JSON."),
        403: errorResponse("`csrf_origin_mismatch`: the request must carry `Origin` equal to FRONTDESK_PUBLIC_URL's origin."),
        409: errorResponse("`setup_already_done`: an operator exists already; sign in instead."),
        413: errors.payloadTooLarge,
        415: errors.unsupportedMediaType,
        422: errorResponse("`validation_failed`: `fields` names each bad member: `email` not an e-mail address, `password` too short or too common, `name` empty."),
        429: errors.rateLimited,
        500: errors.internal,
      },
    },
    preValidation: async (request) => requireSameOrigin(services, request),
    handler: async (request, reply) => {
      await enforceRateLimit(services.limiter, reply, ["loginPerIp", request.ip]);
      const { operator, workspace, session } = await completeSetup(services, request.body);
      reply.setCookie(SESSION_COOKIE_NAME, session.secret, sessionCookieOptions(services.config, session.expiresAt));
      return reply.code(201).send({ data: { operator: presentSignedInOperator(operator), workspace } });
    },
  });
};
