import { createSourceBodySchema, sourceIdParamsSchema, sourceListResponseSchema, sourceResponseSchema } from "@frontdesk/contracts";
import { apiTokenSecurity, bodyErrors, errorResponse, errors, jsonResponse, noContentResponse } from "../openapi/route-responses.js";

const tags = ["sources"];

/** The errors every Sources route can give: the API token, its ability, its budget. */
function tokenErrors(ability: "sources:read" | "sources:write") {
  const missingAbility =
    ability === "sources:read"
      ? "`missing_ability`: the token has neither `sources:read` nor `sources:write` (which implies reading)."
      : "`missing_ability`: the token lacks `sources:write`.";
  return { 401: errors.apiToken, 403: errorResponse(missingAbility), 429: errors.rateLimited, 500: errors.internal } as const;
}
const sourceNotFound = errorResponse("`source_not_found`: no source with this id in the token's workspace.");
const badId = errorResponse("`validation_failed`: the id cannot be a source id (`fields.id` says why).");

/** The route schemas of the Sources API: validation, serialisation and the OpenAPI document. */
export const listSourcesRouteSchema = {
  tags,
  operationId: "listSources",
  summary: "List the workspace's sources",
  description: "The 100 most recent sources of the token's workspace, newest first.",
  security: apiTokenSecurity,
  response: {
    200: jsonResponse("The sources.", sourceListResponseSchema),
    ...tokenErrors("sources:read"),
  },
};

export const getSourceRouteSchema = {
  tags,
  operationId: "getSource",
  summary: "Read one source",
  description: "One source of the token's workspace, with its indexing status (and, for a sitemap, its page counts).",
  security: apiTokenSecurity,
  params: sourceIdParamsSchema,
  response: {
    200: jsonResponse("The source.", sourceResponseSchema),
    ...tokenErrors("sources:read"),
    404: sourceNotFound,
    422: badId,
  },
};

export const createSourceRouteSchema = {
  tags,
  operationId: "createSource",
  summary: "Add a source to an agent's knowledge",
  description:
    "Queues a URL, a sitemap or a text for indexing (the job is enqueued in the same transaction). A text the agent " +
    "already has (same SHA-256) returns the existing source (200) unless it had failed; a URL or sitemap pushed again " +
    "returns the existing source (200) and schedules a re-sync.",
  security: apiTokenSecurity,
  body: createSourceBodySchema,
  response: {
    200: jsonResponse("The existing source (a duplicate); nothing new was created.", sourceResponseSchema),
    201: jsonResponse("The new source, `status: \"pending\"`.", sourceResponseSchema),
    ...bodyErrors,
    ...tokenErrors("sources:write"),
    404: errorResponse("`agent_not_found`: no agent with this id in the token's workspace."),
    503: errorResponse("`service_unavailable`: the source changed while it was being created (a concurrent delete); retry."),
  },
};

export const deleteSourceRouteSchema = {
  tags,
  operationId: "deleteSource",
  summary: "Delete a source",
  description: "Deletes the source with its documents and chunks; the agent stops citing it at once.",
  security: apiTokenSecurity,
  params: sourceIdParamsSchema,
  response: {
    204: noContentResponse("Deleted, with its documents and chunks."),
    ...tokenErrors("sources:write"),
    404: sourceNotFound,
    422: badId,
  },
};
