import { errorResponse, errors } from "../openapi/route-responses.js";

/** The cookie security scheme of every console route (see register-openapi.ts). */
export const consoleSecurity = [{ consoleSession: [] }];

/**
 * The same for a route only admins may call: the role is named in the requirement, as OpenAPI 3.1
 * allows for a scheme other than OAuth. What the document says is what is enforced: role-guard.ts
 * reads it and answers an `agent` 403 `forbidden` before the request is validated.
 */
export const consoleAdminSecurity = [{ consoleSession: ["admin"] }];

export const consoleErrorResponses = {
  unauthenticated: errorResponse("`unauthenticated`: no session cookie, or its session has ended (signed out, idle 12 hours, 30 days old, password changed, operator removed)."),
  csrf: errorResponse(
    "`csrf_origin_mismatch`: a state-changing request must carry `Origin` equal to FRONTDESK_PUBLIC_URL's origin; " +
      "`forbidden`: the route is for admins and the operator is an agent.",
  ),
} as const;

/** The errors of a console route that reads nothing but the session (GET). */
export const consoleReadErrors = {
  401: consoleErrorResponses.unauthenticated,
  500: errors.internal,
} as const;

/** The errors of a console route that changes something (cookie, Origin, JSON body). */
export const consoleWriteErrors = {
  400: errors.invalidJson,
  401: consoleErrorResponses.unauthenticated,
  403: consoleErrorResponses.csrf,
  413: errors.payloadTooLarge,
  415: errors.unsupportedMediaType,
  422: errors.validationFailed,
  500: errors.internal,
} as const;
