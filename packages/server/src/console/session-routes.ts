import { meResponseSchema, pendingSignInResponseSchema, setPasswordBodySchema, signInBodySchema } from "@frontdesk/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { errorResponse, errors, jsonResponse, noContentResponse } from "../openapi/route-responses.js";
import { enforceRateLimit } from "../ratelimit/enforce-rate-limit.js";
import { operatorGuard, operatorOf, requireSameOrigin, sessionSecretOf } from "./authenticate-operator.js";
import { hashConsoleSecret } from "./console-secret.js";
import { consoleReadErrors, consoleSecurity } from "./console-responses.js";
import { deleteOperatorSession } from "../tenants/operator-sessions.js";
import { presentSignedInOperator } from "./schemas.js";
import { expiredSessionCookieOptions, SESSION_COOKIE_NAME, sessionCookieOptions } from "./session-cookie.js";
import { setPasswordWithToken } from "./set-password.js";
import { signIn } from "./sign-in.js";
import { issuePendingSignIn } from "./two-factor/pending-sign-in.js";
import { requireSignInAllowed } from "./sign-in-throttle.js";
import { findOperator } from "../tenants/operators.js";
import { operatorEvent, signedOutEvent } from "../tenants/settings-events.js";

const originError = errorResponse("`csrf_origin_mismatch`: the request must carry `Origin` equal to FRONTDESK_PUBLIC_URL's origin.");

/** Signing in and out, choosing a password, and who is signed in; mounted under /api/v1/console. */
export const sessionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { services } = app;

  app.post("/session", {
    schema: {
      tags: ["console"],
      operationId: "createConsoleSession",
      summary: "Sign in to the console",
      description:
        "Checks the account's e-mail (one account per e-mail across the deployment, any case; an invitation not yet accepted is none) and password, and sets the session cookie " +
        "`frontdesk_console_session` (HttpOnly, SameSite=Lax, Path=/api/v1/console, Secure when FRONTDESK_PUBLIC_URL is https). " +
        "The session ends after 12 hours without a request, 30 days after sign-in, on sign-out, or when the password changes. " +
        "Attempts are limited per client IP (20 per 5 minutes). Wrong passwords make the next attempts wait, doubling from 1 second to at most 15 minutes: " +
        "per e-mail and client IP after 5, per e-mail from every IP after 30 (except from an IP the account signed in from in the last 30 days), " +
        "per client IP after 30; a waiting attempt is 429 with Retry-After, whether the e-mail has an account or not. Needs `Origin` equal to FRONTDESK_PUBLIC_URL's origin.",
      body: signInBodySchema,
      response: {
        200: jsonResponse("Signed in: the session cookie is set.", meResponseSchema),
        202: jsonResponse(
          "The password is right and a second step is due (the operator's authenticator, or enrolling one the workspace requires): " +
            "the cookie `frontdesk_console_pending` (HttpOnly, 5 minutes) is set, not a session. Continue with POST /session/second-factor or /session/totp-enrolment.",
          pendingSignInResponseSchema,
        ),
        400: errors.invalidJson,
        401: errorResponse("`invalid_credentials`: the e-mail or the password is wrong (the answer does not tell which)."),
        403: originError,
        413: errors.payloadTooLarge,
        415: errors.unsupportedMediaType,
        422: errors.validationFailed,
        429: errors.rateLimited,
        500: errors.internal,
      },
    },
    preValidation: async (request) => requireSameOrigin(services, request),
    handler: async (request, reply) => {
      const attempt = { email: request.body.email, address: request.ip };
      // A waiting attempt is refused before it counts against the IP's window (or costs a hash).
      await requireSignInAllowed(services, attempt);
      await enforceRateLimit(services.limiter, reply, ["loginPerIp", request.ip]);
      const outcome = await signIn(services, { ...request.body, address: request.ip });
      if (outcome.kind === "second_step") {
        const pending = issuePendingSignIn(services, reply, outcome.operator.id, outcome.step);
        return reply.code(202).send({ data: { second_step: pending.step, expires_at: pending.expiresAt.toISOString() } });
      }
      reply.setCookie(SESSION_COOKIE_NAME, outcome.session.secret, sessionCookieOptions(services.config, outcome.session.expiresAt));
      return { data: presentSignedInOperator(outcome.operator) };
    },
  });

  app.delete("/session", {
    schema: {
      tags: ["console"],
      operationId: "deleteConsoleSession",
      summary: "Sign out of the console",
      description: "Ends the cookie's session (if it is still live) and clears the cookie. Needs `Origin` equal to FRONTDESK_PUBLIC_URL's origin.",
      security: consoleSecurity,
      response: { 204: noContentResponse("Signed out; the cookie is cleared."), 403: originError, 500: errors.internal },
    },
    preValidation: async (request) => requireSameOrigin(services, request),
    handler: async (request, reply) => {
      const secret = sessionSecretOf(request);
      const ended = secret === undefined ? null : await deleteOperatorSession(services.db, hashConsoleSecret(secret));
      // This session's realtime subscriptions end with it.
      if (ended) await services.events.raise(services.db, signedOutEvent(ended.workspaceId, ended.operatorId, [ended.id]));
      reply.clearCookie(SESSION_COOKIE_NAME, expiredSessionCookieOptions(services.config));
      return reply.code(204).send(null);
    },
  });

  app.get("/me", {
    schema: {
      tags: ["console"],
      operationId: "getConsoleOperator",
      summary: "The signed-in operator",
      description: "Who the session cookie belongs to: id, workspace, name, e-mail and role. Moves the session's 12-hour idle deadline.",
      security: consoleSecurity,
      response: { 200: jsonResponse("The signed-in operator.", meResponseSchema), ...consoleReadErrors },
    },
    preValidation: operatorGuard(services),
    handler: async (request) => ({ data: presentSignedInOperator(operatorOf(request)) }),
  });

  app.post("/password", {
    schema: {
      tags: ["console"],
      operationId: "setConsolePassword",
      summary: "Choose a password with a set-password link",
      description:
        "`token` is what follows `#token=` in the link `admin operator create` (or `admin operator password-link`) printed: valid 24 hours, once. " +
        "The password needs at least 10 characters, must not be one of the 1,000 most common passwords, and must be hard to guess by zxcvbn's estimate (score 3 of 4). Every session of the operator ends; " +
        "sign in afterwards. Limited with sign-in's per-IP budget. Needs `Origin` equal to FRONTDESK_PUBLIC_URL's origin.",
      body: setPasswordBodySchema,
      response: {
        200: jsonResponse("The password is set; the operator whose it is.", meResponseSchema),
        400: errorResponse("`password_token_invalid`: the link's token is unknown, already used or expired; `invalid_json`: the body is not JSON."),
        403: originError,
        409: errorResponse(
          "`email_taken`: the invitation's e-mail already has an account (an operator of another workspace who set a password); an e-mail has one account. " +
            "The invitation stays unaccepted and its link unused: sign in with that account, or be invited with another address.",
        ),
        413: errors.payloadTooLarge,
        415: errors.unsupportedMediaType,
        422: errorResponse("`validation_failed`: `fields.password` says why the password is refused (too short, too common)."),
        429: errors.rateLimited,
        500: errors.internal,
      },
    },
    preValidation: async (request) => requireSameOrigin(services, request),
    handler: async (request, reply) => {
      await enforceRateLimit(services.limiter, reply, ["loginPerIp", request.ip]);
      const { operatorId, endedSessionIds } = await setPasswordWithToken(services.db, request.body, services.now());
      const operator = await findOperator(services.db, operatorId);
      if (!operator) throw new Error("the operator of a consumed set-password token is gone");
      // The Settings page's operators list shows whether a password is set; the ended sessions' sockets lose their channels.
      await services.events.raise(services.db, operatorEvent("operator.updated", operator, services.now()));
      await services.events.raise(services.db, signedOutEvent(operator.workspaceId, operator.id, endedSessionIds));
      return { data: presentSignedInOperator(operator) };
    },
  });
};
