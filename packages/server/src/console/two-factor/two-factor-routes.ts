import {
  recoveryCodesResponseSchema,
  secondFactorBodySchema,
  totpCodeBodySchema,
  totpEnrolmentResponseSchema,
  twoFactorStatusResponseSchema,
  updateWorkspaceSignInSettingsBodySchema,
  workspaceSignInSettingsResponseSchema,
} from "@frontdesk/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { errorResponse, jsonResponse, noContentResponse } from "../../openapi/route-responses.js";
import { setWorkspaceTwoFactorRequired, workspaceRequiresTwoFactor } from "../../tenants/operator-two-factor.js";
import { operatorGuard, operatorOf } from "../authenticate-operator.js";
import { consoleAdminSecurity, consoleErrorResponses, consoleReadErrors, consoleSecurity, consoleWriteErrors } from "../console-responses.js";
import { requireSignInAllowed, recordSignInFailure } from "../sign-in-throttle.js";
import type { SecondFactor } from "./check-second-factor.js";
import { confirmTotpEnrolment, startTotpEnrolment } from "./enrol-totp.js";
import { renewRecoveryCodes, turnOffTwoFactor, twoFactorStatus } from "./manage-two-factor.js";
import { AppError } from "../../http/app-error.js";
import type { Services } from "../../services.js";
import type { FastifyRequest } from "fastify";

const codeErrors = {
  ...consoleWriteErrors,
  401: errorResponse("`unauthenticated`: no live session; `invalid_code`: the code is wrong, expired or already used."),
  429: errorResponse("`rate_limited`: too many wrong codes: they count as wrong passwords do (Retry-After)."),
} as const;

const factorOf = (body: { code?: string | undefined; recovery_code?: string | undefined }): SecondFactor =>
  body.recovery_code !== undefined ? { recoveryCode: body.recovery_code } : { code: body.code ?? "" };

/** Runs a step that checks a code, under sign-in's back-off: a stolen session does not make a code guesser. */
async function withCodeBackoff<T>(services: Services, request: FastifyRequest, work: () => Promise<T>): Promise<T> {
  const attempt = { email: operatorOf(request).email, address: request.ip };
  await requireSignInAllowed(services, attempt);
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError && error.code === "invalid_code") await recordSignInFailure(services, attempt);
    throw error;
  }
}

/** The signed-in operator's two-factor sign-in, and the workspace's requirement of it (admins); mounted under /api/v1/console. */
export const twoFactorRoutes: FastifyPluginAsyncZod = async (app) => {
  const { services } = app;

  app.get("/me/two-factor", {
    schema: {
      tags: ["console"],
      operationId: "getConsoleTwoFactor",
      summary: "The signed-in operator's two-factor sign-in",
      description: "Whether sign-in asks the operator for an authenticator's code, since when, how many recovery codes are left, and whether the workspace requires it.",
      security: consoleSecurity,
      response: { 200: jsonResponse("Whether it is on, the recovery codes left, and whether the workspace requires it.", twoFactorStatusResponseSchema), ...consoleReadErrors },
    },
    preValidation: operatorGuard(services),
    handler: async (request) => ({ data: await twoFactorStatus(services, operatorOf(request).id) }),
  });

  app.post("/me/two-factor/enrolment", {
    schema: {
      tags: ["console"],
      operationId: "startTotpEnrolment",
      summary: "Set up an authenticator app",
      description:
        "A new secret (text, otpauth:// URI, QR code), shown once and kept sealed until a code of it confirms it (POST /me/two-factor/enrolment/confirm). " +
        "An authenticator already on stays in force until then.",
      security: consoleSecurity,
      response: { 200: jsonResponse("The new secret.", totpEnrolmentResponseSchema), ...consoleWriteErrors },
    },
    preValidation: operatorGuard(services),
    handler: async (request) => {
      const enrolment = await startTotpEnrolment(services, operatorOf(request).id);
      return { data: { secret: enrolment.secret, otpauth_uri: enrolment.uri, qr_code: enrolment.qrCode } };
    },
  });

  app.post("/me/two-factor/enrolment/confirm", {
    schema: {
      tags: ["console"],
      operationId: "confirmTotpEnrolment",
      summary: "Confirm the authenticator app with its code",
      description: "Two-factor sign-in is on from now; ten recovery codes (replacing any earlier ones) are returned this once.",
      security: consoleSecurity,
      body: totpCodeBodySchema,
      response: { 200: jsonResponse("On, with the recovery codes.", recoveryCodesResponseSchema), 404: errorResponse("`not_found`: no enrolment was started."), ...codeErrors },
    },
    preValidation: operatorGuard(services),
    handler: async (request) => {
      const codes = await withCodeBackoff(services, request, () => confirmTotpEnrolment(services, operatorOf(request).id, request.body.code));
      return { data: { recovery_codes: codes } };
    },
  });

  app.post("/me/two-factor/recovery-codes", {
    schema: {
      tags: ["console"],
      operationId: "renewRecoveryCodes",
      summary: "Make ten new recovery codes",
      description: "With a current code (or a recovery code): ten new codes replace every earlier one, returned this once.",
      security: consoleSecurity,
      body: secondFactorBodySchema,
      response: { 200: jsonResponse("The new recovery codes.", recoveryCodesResponseSchema), ...codeErrors },
    },
    preValidation: operatorGuard(services),
    handler: async (request) => {
      const codes = await withCodeBackoff(services, request, () => renewRecoveryCodes(services, operatorOf(request).id, factorOf(request.body)));
      return { data: { recovery_codes: codes } };
    },
  });

  app.post("/me/two-factor/disable", {
    schema: {
      tags: ["console"],
      operationId: "disableTwoFactor",
      summary: "Turn two-factor sign-in off",
      description: "With a current code (or a recovery code): the secret and the recovery codes are deleted. Refused while the workspace requires two-factor sign-in.",
      security: consoleSecurity,
      body: secondFactorBodySchema,
      response: { 204: noContentResponse("Off."), 409: errorResponse("`two_factor_required`: the workspace requires it."), ...codeErrors },
    },
    preValidation: operatorGuard(services),
    handler: async (request, reply) => {
      await withCodeBackoff(services, request, () => turnOffTwoFactor(services, operatorOf(request).id, factorOf(request.body)));
      return reply.code(204).send(null);
    },
  });

  app.get("/workspace/sign-in", {
    schema: {
      tags: ["console"],
      operationId: "getWorkspaceSignInSettings",
      summary: "How the workspace's operators sign in",
      description: "Whether the workspace requires two-factor sign-in of every operator (single sign-on is GET /workspace/sso). Admins only.",
      security: consoleAdminSecurity,
      response: { 200: jsonResponse("The settings.", workspaceSignInSettingsResponseSchema), ...consoleReadErrors, 403: consoleErrorResponses.csrf },
    },
    preValidation: operatorGuard(services),
    handler: async (request) => ({ data: { require_two_factor: await workspaceRequiresTwoFactor(services.db, operatorOf(request).workspaceId) } }),
  });

  app.patch("/workspace/sign-in", {
    schema: {
      tags: ["console"],
      operationId: "updateWorkspaceSignInSettings",
      summary: "Require two-factor sign-in in the workspace",
      description:
        "`require_two_factor: true`: every operator signs in with an authenticator's code; an operator without one is made to set it up at their next sign-in " +
        "(sessions already open go on), and no one can turn theirs off. Admins only.",
      security: consoleAdminSecurity,
      body: updateWorkspaceSignInSettingsBodySchema,
      response: { 200: jsonResponse("The settings now.", workspaceSignInSettingsResponseSchema), ...consoleWriteErrors },
    },
    preValidation: operatorGuard(services),
    handler: async (request) => {
      const { workspaceId } = operatorOf(request);
      if (request.body.require_two_factor !== undefined) await setWorkspaceTwoFactorRequired(services.db, workspaceId, request.body.require_two_factor);
      return { data: { require_two_factor: await workspaceRequiresTwoFactor(services.db, workspaceId) } };
    },
  });
};
