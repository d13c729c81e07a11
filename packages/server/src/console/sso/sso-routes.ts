import {
  ssoCallbackQuerySchema,
  ssoDiscoveryQuerySchema,
  ssoDiscoveryResponseSchema,
  ssoSettingsBodySchema,
  ssoSettingsResponseSchema,
  ssoSignOutResponseSchema,
  ssoStartBodySchema,
  ssoStartResponseSchema,
} from "@frontdesk/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { errorResponse, errors, jsonResponse, noContentResponse } from "../../openapi/route-responses.js";
import { enforceRateLimit } from "../../ratelimit/enforce-rate-limit.js";
import { deleteOperatorSession } from "../../tenants/operator-sessions.js";
import { signedOutEvent } from "../../tenants/settings-events.js";
import { deleteWorkspaceSso, findWorkspaceSso } from "../../tenants/workspace-sso.js";
import { operatorGuard, operatorOf, requireSameOrigin, sessionSecretOf } from "../authenticate-operator.js";
import { hashConsoleSecret } from "../console-secret.js";
import { consoleAdminSecurity, consoleErrorResponses, consoleReadErrors, consoleSecurity, consoleWriteErrors } from "../console-responses.js";
import { expiredSessionCookieOptions, SESSION_COOKIE_NAME, sessionCookieOptions } from "../session-cookie.js";
import { finishSso, SsoRefusal } from "./finish-sso.js";
import { OidcProviders } from "./oidc-providers.js";
import { SsoNetwork } from "./sso-network.js";
import { presentSsoSettings, saveSsoSettings } from "./sso-settings.js";
import { ssoEndSessionUrl } from "./sso-sign-out.js";
import { clearSsoState, setSsoState, ssoStateOf } from "./sso-state.js";
import { ssoProviderOf, startSso } from "./start-sso.js";
import "./sso-schemas.js";

const originError = errorResponse("`csrf_origin_mismatch`: the request must carry `Origin` equal to FRONTDESK_PUBLIC_URL's origin.");

/** Operators' single sign-on with the workspace's OpenID provider, and its settings (admins); mounted under /api/v1/console. */
export const ssoRoutes: FastifyPluginAsyncZod = async (app) => {
  const { services } = app;
  const network = new SsoNetwork(services.config.sso.allowPrivateNetworks);
  const providers = new OidcProviders(network, services.secretBoxes);
  app.addHook("onClose", async () => network.close());
  const consolePage = (path: string) => new URL(path, new URL(services.config.publicUrl).origin).toString();

  app.get("/sso/discover", {
    schema: {
      tags: ["console"],
      operationId: "discoverConsoleSso",
      summary: "Whether an e-mail signs in with a provider",
      description:
        "The sign-in page asks it for the e-mail typed: the provider's name when a workspace signs in that e-mail's domain with single sign-on, else null. " +
        "It says nothing about accounts (only about domains). Limited with sign-in's per-IP budget.",
      querystring: ssoDiscoveryQuerySchema,
      response: { 200: jsonResponse("The provider's name, or null.", ssoDiscoveryResponseSchema), 422: errors.validationFailed, 429: errors.rateLimited, 500: errors.internal },
    },
    handler: async (request, reply) => {
      await enforceRateLimit(services.limiter, reply, ["loginPerIp", request.ip]);
      const sso = await ssoProviderOf(services, request.query.email);
      return { data: { provider: sso?.displayName ?? null } };
    },
  });

  app.post("/sso/start", {
    schema: {
      tags: ["console"],
      operationId: "startConsoleSso",
      summary: "Begin signing in with the workspace's provider",
      description:
        "The authorization URL (authorization code flow with PKCE S256, `state` and `nonce`, scope `openid email profile`, the e-mail as `login_hint`) to send the browser to, " +
        "and the cookie `frontdesk_console_sso` (sealed, HttpOnly, 10 minutes) the callback checks. Needs `Origin` equal to FRONTDESK_PUBLIC_URL's origin.",
      body: ssoStartBodySchema,
      response: {
        200: jsonResponse("Where to send the browser.", ssoStartResponseSchema),
        400: errors.invalidJson,
        403: originError,
        404: errorResponse("`sso_not_configured`: no workspace signs in this e-mail's domain with a provider."),
        413: errors.payloadTooLarge,
        415: errors.unsupportedMediaType,
        422: errors.validationFailed,
        429: errors.rateLimited,
        500: errors.internal,
        503: errorResponse("`service_unavailable`: the provider's discovery document cannot be read now."),
      },
    },
    preValidation: async (request) => requireSameOrigin(services, request),
    handler: async (request, reply) => {
      await enforceRateLimit(services.limiter, reply, ["loginPerIp", request.ip]);
      const started = await startSso(services, providers, request.body.email);
      setSsoState(services, reply, started.state);
      return { data: { authorization_url: started.authorizationUrl } };
    },
  });

  app.get("/sso/callback", {
    schema: {
      tags: ["console"],
      operationId: "finishConsoleSso",
      summary: "The provider's redirect back (register it as the redirect URI)",
      description:
        "Exchanges the code and checks the ID token (state, nonce, issuer, audience, signature, expiry, with openid-client); an operator of an allowed domain is signed in " +
        "(created at first sign-in with the workspace's default role) and sent to `/console/inbox` with the session cookie. Anything refused is logged with its reason " +
        "and sent to `/console/?sso_error=<code>` (`sso_failed`, `sso_expired`, `sso_domain_not_allowed`, or the provider's own `error`).",
      querystring: ssoCallbackQuerySchema,
      response: { 302: noContentResponse("To the console: signed in, or with `sso_error`."), 500: errors.internal },
    },
    handler: async (request, reply) => {
      const state = ssoStateOf(services, request);
      clearSsoState(services, reply);
      const callbackUrl = new URL(request.url, new URL(services.config.publicUrl).origin);
      try {
        if (request.query.error !== undefined) throw new SsoRefusal("sso_failed", `the provider answered ${request.query.error}: ${request.query.error_description ?? ""}`.trim());
        const { operator, session, created } = await finishSso(services, providers, state, callbackUrl);
        request.log.info({ workspaceId: operator.workspaceId, operatorId: operator.id, created }, "single sign-on: signed in");
        reply.setCookie(SESSION_COOKIE_NAME, session.secret, sessionCookieOptions(services.config, session.expiresAt));
        return reply.redirect(consolePage("/console/inbox"), 302);
      } catch (error) {
        if (!(error instanceof SsoRefusal)) throw error;
        request.log.warn({ workspaceId: state?.workspaceId, code: error.code, reason: error.reason }, `single sign-on refused: ${error.reason}`);
        return reply.redirect(consolePage(`/console/?sso_error=${error.code}`), 302);
      }
    },
  });

  app.post("/session/sign-out", {
    schema: {
      tags: ["console"],
      operationId: "signOutConsole",
      summary: "Sign out, and out of the provider too",
      description:
        "Ends the cookie's session (as DELETE /session) and, for a session the workspace's provider started, gives its sign-out URL (RP-initiated logout: " +
        "`end_session_endpoint` with `id_token_hint`, `client_id` and `post_logout_redirect_uri`) to send the browser to. Needs `Origin` equal to FRONTDESK_PUBLIC_URL's origin.",
      security: consoleSecurity,
      response: { 200: jsonResponse("Signed out; where to go next.", ssoSignOutResponseSchema), 403: originError, 500: errors.internal },
    },
    preValidation: async (request) => requireSameOrigin(services, request),
    handler: async (request, reply) => {
      const secret = sessionSecretOf(request);
      const ended = secret === undefined ? null : await deleteOperatorSession(services.db, hashConsoleSecret(secret));
      if (ended) await services.events.raise(services.db, signedOutEvent(ended.workspaceId, ended.operatorId, [ended.id]));
      reply.clearCookie(SESSION_COOKIE_NAME, expiredSessionCookieOptions(services.config));
      return { data: { end_session_url: ended ? await ssoEndSessionUrl(services, providers, ended) : null } };
    },
  });

  app.get("/workspace/sso", {
    schema: {
      tags: ["console"],
      operationId: "getWorkspaceSso",
      summary: "The workspace's single sign-on provider",
      description: "Null when none is set. The client secret is never returned (`has_client_secret` says whether one is stored). Admins only.",
      security: consoleAdminSecurity,
      response: { 200: jsonResponse("The provider, or null.", ssoSettingsResponseSchema), ...consoleReadErrors, 403: consoleErrorResponses.csrf },
    },
    preValidation: operatorGuard(services),
    handler: async (request) => {
      const sso = await findWorkspaceSso(services.db, operatorOf(request).workspaceId);
      return { data: sso ? presentSsoSettings(services, sso) : null };
    },
  });

  app.put("/workspace/sso", {
    schema: {
      tags: ["console"],
      operationId: "setWorkspaceSso",
      summary: "Set the workspace's single sign-on provider",
      description:
        "Issuer, client id and secret (sealed at rest), the allowed e-mail domains, the role of operators created at first sign-in, and whether password sign-in stays on. " +
        "The issuer's discovery document is read at once through the outbound address guard (a loopback or private issuer needs FRONTDESK_SSO_ALLOW_PRIVATE_NETWORKS): " +
        "422 `fields.issuer` when it cannot be. Admins only.",
      security: consoleAdminSecurity,
      body: ssoSettingsBodySchema,
      response: { 200: jsonResponse("The provider now.", ssoSettingsResponseSchema), ...consoleWriteErrors },
    },
    preValidation: operatorGuard(services),
    handler: async (request) => ({ data: await saveSsoSettings(services, providers, operatorOf(request).workspaceId, request.body) }),
  });

  app.delete("/workspace/sso", {
    schema: {
      tags: ["console"],
      operationId: "deleteWorkspaceSso",
      summary: "Remove the workspace's single sign-on provider",
      description: "Operators sign in with passwords again (those created by the provider get one with a set-password link). Sessions already open go on. Admins only.",
      security: consoleAdminSecurity,
      response: { 204: noContentResponse("Removed (or there was none)."), ...consoleWriteErrors },
    },
    preValidation: operatorGuard(services),
    handler: async (request, reply) => {
      await deleteWorkspaceSso(services.db, operatorOf(request).workspaceId);
      providers.forget(operatorOf(request).workspaceId);
      return reply.code(204).send(null);
    },
  });
};
