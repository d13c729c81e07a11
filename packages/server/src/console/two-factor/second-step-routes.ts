import { enrolledSignInResponseSchema, meResponseSchema, secondFactorBodySchema, totpCodeBodySchema, totpEnrolmentResponseSchema } from "@frontdesk/contracts";
import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { AppError } from "../../http/app-error.js";
import { errorResponse, errors, jsonResponse } from "../../openapi/route-responses.js";
import type { Services } from "../../services.js";
import { requireSameOrigin } from "../authenticate-operator.js";
import { presentSignedInOperator } from "../schemas.js";
import { SESSION_COOKIE_NAME, sessionCookieOptions } from "../session-cookie.js";
import { requireSignInAllowed } from "../sign-in-throttle.js";
import { findOperator } from "../../tenants/operators.js";
import { completeSignIn, type CompletedSignIn } from "./complete-sign-in.js";
import { startTotpEnrolment } from "./enrol-totp.js";
import { clearPendingSignIn, pendingSignInOf } from "./pending-sign-in.js";

const secondStepErrors = {
  400: errors.invalidJson,
  401: errorResponse(
    "`sign_in_expired`: no pending sign-in (the cookie `frontdesk_console_pending` is missing, forged, or older than 5 minutes): sign in again; " +
      "`invalid_code`: the code is wrong, expired or already used (each code and each recovery code works once).",
  ),
  403: errorResponse("`csrf_origin_mismatch`: the request must carry `Origin` equal to FRONTDESK_PUBLIC_URL's origin."),
  409: errorResponse("`two_factor_required`: this pending sign-in is for the other step (a code is due, or enrolling)."),
  413: errors.payloadTooLarge,
  415: errors.unsupportedMediaType,
  422: errors.validationFailed,
  429: errors.rateLimited,
  500: errors.internal,
} as const;

function startSession(services: Services, reply: FastifyReply, completed: CompletedSignIn): void {
  clearPendingSignIn(services.config, reply);
  reply.setCookie(SESSION_COOKIE_NAME, completed.session.secret, sessionCookieOptions(services.config, completed.session.expiresAt));
}

/** The second step of a sign-in (after POST /session answered 202); mounted under /api/v1/console. */
export const secondStepRoutes: FastifyPluginAsyncZod = async (app) => {
  const { services } = app;

  app.post("/session/second-factor", {
    schema: {
      tags: ["console"],
      operationId: "completeConsoleSignIn",
      summary: "Finish signing in with an authenticator code",
      description:
        "With the pending cookie of a sign-in that answered 202 `totp`: the six digits the operator's authenticator shows (the previous or next 30-second code is accepted too), " +
        "or one of their recovery codes. A code is accepted once: the same code again (a replay) is refused. Wrong codes count as wrong passwords do " +
        "(the same back-off per e-mail and IP). Sets the session cookie and clears the pending one. Needs `Origin` equal to FRONTDESK_PUBLIC_URL's origin.",
      body: secondFactorBodySchema,
      response: { 200: jsonResponse("Signed in: the session cookie is set.", meResponseSchema), ...secondStepErrors },
    },
    preValidation: async (request) => requireSameOrigin(services, request),
    handler: async (request, reply) => {
      const pending = pendingSignInOf(services, request);
      if (pending.step !== "totp") throw new AppError("two_factor_required", "Set up an authenticator first: the workspace requires it (POST /session/totp-enrolment).");
      const factor = request.body.recovery_code !== undefined ? { recoveryCode: request.body.recovery_code } : { code: request.body.code ?? "" };
      const completed = await completeSignIn(services, pending, request.ip, factor);
      startSession(services, reply, completed);
      return { data: presentSignedInOperator(completed.operator) };
    },
  });

  app.post("/session/totp-enrolment", {
    schema: {
      tags: ["console"],
      operationId: "startSignInTotpEnrolment",
      summary: "Set up an authenticator while signing in (workspace requires it)",
      description:
        "With the pending cookie of a sign-in that answered 202 `enrol_totp`: a new authenticator secret as text, otpauth:// URI and QR code. " +
        "Confirm it with POST /session/totp-enrolment/confirm. Calling it again replaces the secret not yet confirmed. Needs `Origin` equal to FRONTDESK_PUBLIC_URL's origin.",
      response: { 200: jsonResponse("The new secret, shown once.", totpEnrolmentResponseSchema), ...secondStepErrors },
    },
    preValidation: async (request) => requireSameOrigin(services, request),
    handler: async (request) => {
      const pending = pendingSignInOf(services, request);
      if (pending.step !== "enrol_totp") throw new AppError("two_factor_required", "An authenticator is set up already: type its code (POST /session/second-factor).");
      const operator = await findOperator(services.db, pending.operatorId);
      if (!operator) throw new AppError("sign_in_expired", "The sign-in has expired; sign in again.");
      await requireSignInAllowed(services, { email: operator.email, address: request.ip });
      const enrolment = await startTotpEnrolment(services, pending.operatorId);
      return { data: { secret: enrolment.secret, otpauth_uri: enrolment.uri, qr_code: enrolment.qrCode } };
    },
  });

  app.post("/session/totp-enrolment/confirm", {
    schema: {
      tags: ["console"],
      operationId: "confirmSignInTotpEnrolment",
      summary: "Confirm the new authenticator and finish signing in",
      description:
        "The code the new authenticator shows: two-factor sign-in is on for the operator from now, the session cookie is set, and ten recovery codes are returned, this once. " +
        "Needs `Origin` equal to FRONTDESK_PUBLIC_URL's origin.",
      body: totpCodeBodySchema,
      response: {
        200: jsonResponse("Signed in, with the recovery codes.", enrolledSignInResponseSchema),
        404: errorResponse("`not_found`: no enrolment was started (POST /session/totp-enrolment first)."),
        ...secondStepErrors,
      },
    },
    preValidation: async (request) => requireSameOrigin(services, request),
    handler: async (request, reply) => {
      const pending = pendingSignInOf(services, request);
      if (pending.step !== "enrol_totp") throw new AppError("two_factor_required", "An authenticator is set up already: type its code (POST /session/second-factor).");
      const completed = await completeSignIn(services, pending, request.ip, { code: request.body.code });
      startSession(services, reply, completed);
      return { data: presentSignedInOperator(completed.operator), recovery_codes: completed.recoveryCodes ?? [] };
    },
  });
};
