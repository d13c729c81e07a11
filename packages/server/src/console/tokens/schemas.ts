import { consoleIdSchema, isoTimestampSchema } from "@frontdesk/contracts";
import { z } from "zod";
import { componentSchemas } from "../../openapi/component-schemas.js";
import { errorResponse, jsonResponse } from "../../openapi/route-responses.js";
import { API_TOKEN_ABILITIES } from "../../tenants/create-api-token.js";
import { consoleAdminSecurity, consoleErrorResponses, consoleReadErrors, consoleSecurity, consoleWriteErrors } from "../console-responses.js";
import { documentMembers } from "../../openapi/document-members.js";

export const apiTokenSchema = z.object({
  id: z.string().describe("The token's id (`tok_…`): not the secret."),
  workspace_id: z.string(),
  name: z.string(),
  prefix: z.string().describe("The plaintext's first 8 characters (`fdk_` and 4 more), to recognise the token."),
  abilities: z.array(z.string()).describe("`sources:write` (which implies `sources:read`), `sources:read`, `wp:sync` (the WordPress bulk sync), `conversations:label` (put labels on conversations)."),
  last_used_at: isoTimestampSchema.nullable().describe("The last call it authenticated (kept to the minute)."),
  revoked_at: isoTimestampSchema.nullable().describe("When it was revoked; a revoked token is refused with `invalid_token`."),
  created_at: isoTimestampSchema,
});

export const createTokenBodySchema = z.object({
  name: z.string().trim().min(1).max(100).describe("What the token is for (\"WordPress sync\")."),
  abilities: z
    .array(z.enum(API_TOKEN_ABILITIES))
    .min(1)
    .max(API_TOKEN_ABILITIES.length * 2)
    .describe("What it may do: `sources:write` (push and delete sources, and read them), `sources:read`, `wp:sync` (push a WordPress site's posts), `conversations:label` (list the labels, put them on conversations and take them off)."),
});

export const tokenListResponseSchema = z.object({ data: z.array(apiTokenSchema) });
export const tokenResponseSchema = z.object({ data: apiTokenSchema });
export const createdTokenResponseSchema = z.object({
  data: apiTokenSchema.extend({
    token: z.string().describe("The plaintext (`fdk_` and 48 characters): shown this once, only its SHA-256 is stored."),
  }),
});
export const tokenParamsSchema = z.object({ id: consoleIdSchema });

documentMembers(apiTokenSchema);
documentMembers(createTokenBodySchema);
componentSchemas.add(apiTokenSchema, {
  id: "ApiToken",
  description: "A workspace API token for the Sources API, as the settings page lists it: never its secret nor its hash.",
});
componentSchemas.add(createTokenBodySchema, { id: "CreateApiTokenRequest" });

const tags = ["console"];
const adminOnly = errorResponse("`forbidden`: only an admin manages API tokens; `csrf_origin_mismatch`: a change without `Origin` equal to FRONTDESK_PUBLIC_URL's origin.");
const notFound = errorResponse("`token_not_found`: no token with this id in the operator's workspace.");

export const listTokensRouteSchema = {
  tags,
  operationId: "listConsoleApiTokens",
  summary: "List the workspace's API tokens",
  description: "Every API token of the workspace, revoked ones included, oldest first: name, abilities, prefix, creation, last use and revocation. Admins only.",
  security: consoleAdminSecurity,
  response: {
    200: jsonResponse("The workspace's tokens.", tokenListResponseSchema),
    ...consoleReadErrors,
    403: errorResponse("`forbidden`: only an admin manages API tokens."),
  },
};

export const createTokenRouteSchema = {
  tags,
  operationId: "createConsoleApiToken",
  summary: "Create an API token",
  description:
    "Issues a workspace API token with the given abilities. The answer holds the plaintext `token` this once: only its SHA-256 " +
    "is stored and no route returns it again. Admins only.",
  security: consoleAdminSecurity,
  body: createTokenBodySchema,
  response: {
    201: jsonResponse("The token, with its plaintext (shown once).", createdTokenResponseSchema),
    ...consoleWriteErrors,
    403: adminOnly,
  },
};

export const revokeTokenRouteSchema = {
  tags,
  operationId: "revokeConsoleApiToken",
  summary: "Revoke an API token",
  description:
    "Revokes the token: its next call to the Sources API is refused with 401 `invalid_token`, in every process. Revoking a revoked " +
    "token changes nothing (the first revocation time is kept). Admins only.",
  security: consoleAdminSecurity,
  params: tokenParamsSchema,
  response: {
    200: jsonResponse("The revoked token.", tokenResponseSchema),
    401: consoleErrorResponses.unauthenticated,
    403: adminOnly,
    404: notFound,
    422: consoleWriteErrors[422],
    500: consoleReadErrors[500],
  },
};
