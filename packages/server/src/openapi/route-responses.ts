import { errorBodySchema } from "@frontdesk/contracts";
import { z } from "zod";
import { componentSchemas } from "./component-schemas.js";

/** A documented JSON response: what it means, and the schema that also serialises it. */
export function jsonResponse<Schema extends z.ZodType>(description: string, schema: Schema) {
  return { description, content: { "application/json": { schema } } };
}

/** A documented error response (`{"error":{"code","message"}}`); the description names its codes. */
export function errorResponse(description: string) {
  return jsonResponse(description, errorBodySchema);
}

/** A documented response without a body. */
export function noContentResponse(description: string): z.ZodNull {
  const schema = z.null();
  componentSchemas.add(schema, { description });
  return schema;
}

/** The error responses routes share; each route lists the ones it can give. */
export const errors = {
  invalidJson: errorResponse("`invalid_json`: the body is not valid JSON."),
  payloadTooLarge: errorResponse("`payload_too_large`: the body is over 3 MB."),
  unsupportedMediaType: errorResponse("`unsupported_media_type`: send the body as `application/json` (`text/plain` holding JSON is read too)."),
  validationFailed: errorResponse("`validation_failed`: the body or a path parameter is invalid; `fields` names each bad member and its messages."),
  rateLimited: errorResponse(
    "`rate_limited`: over the route's budget (headers `Retry-After`, `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset`).",
  ),
  sessionToken: errorResponse("`missing_token`, `invalid_token` or `token_expired`: the `Authorization: Bearer <jwt>` from init is missing, invalid or expired."),
  sessionAgentGone: errorResponse("`agent_not_found`: the session's agent has been unpublished since init."),
  apiToken: errorResponse("`missing_token` or `invalid_token`: the `Authorization: Bearer fdk_…` token is missing, unknown or revoked."),
  internal: errorResponse("`internal_error`: an unexpected failure on our side (the message never reveals internals); retry."),
} as const;

/** The errors of every route that reads a JSON body. */
export const bodyErrors = {
  400: errors.invalidJson,
  413: errors.payloadTooLarge,
  415: errors.unsupportedMediaType,
  422: errors.validationFailed,
  500: errors.internal,
} as const;

/** The errors of every route that takes the widget session token (and counts it against the token's budget). */
export const sessionErrors = {
  ...bodyErrors,
  401: errors.sessionToken,
  404: errors.sessionAgentGone,
  429: errors.rateLimited,
} as const;

export const sessionSecurity = [{ sessionToken: [] }];
export const apiTokenSecurity = [{ apiToken: [] }];
