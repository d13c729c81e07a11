import { createSourceBodySchema, replaceSourceFileBodySchema, sourceIdParamsSchema, sourceListResponseSchema, sourceResponseSchema } from "@frontdesk/contracts";
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

const fileTooLarge = errorResponse("`file_too_large`: the file is larger than FRONTDESK_UPLOAD_MAX_BYTES (25 MB by default); reading stopped there.");
const unsupportedFile = errorResponse(
  "`unsupported_media_type`: the file's content (read from its bytes, not its name) is not PDF, DOCX, Markdown, plain text, HTML or CSV; or the body is neither JSON nor multipart/form-data.",
);

export const createSourceRouteSchema = {
  tags,
  operationId: "createSource",
  summary: "Add a source to an agent's knowledge",
  description:
    "Queues a URL, a sitemap, a text or a file for indexing (the job is enqueued in the same transaction). A text or a " +
    "file the agent already has (same SHA-256) returns the existing source (200) unless it had failed; a URL or sitemap " +
    "pushed again returns the existing source (200) and schedules a re-sync. A file is sent as multipart/form-data " +
    "(`agent_id`, `kind=file`, the file in the part `file`, optional `title`, `source_url`, `csv_mode`); its Source has " +
    "`config.filename`, `config.media_type`, `config.bytes` and `config.file_url`, where visitors fetch it.",
  security: apiTokenSecurity,
  consumes: ["application/json", "multipart/form-data"],
  body: createSourceBodySchema,
  response: {
    200: jsonResponse("The existing source (a duplicate); nothing new was created.", sourceResponseSchema),
    201: jsonResponse("The new source, `status: \"pending\"`.", sourceResponseSchema),
    ...bodyErrors,
    ...tokenErrors("sources:write"),
    404: errorResponse("`agent_not_found`: no agent with this id in the token's workspace."),
    413: fileTooLarge,
    415: unsupportedFile,
    503: errorResponse("`service_unavailable`: the source changed while it was being created (a concurrent delete); retry."),
  },
};

export const replaceSourceFileRouteSchema = {
  tags,
  operationId: "replaceSourceFile",
  summary: "Upload a new version of a file source's file",
  description:
    "multipart/form-data with the new file in the part `file`. The source keeps its id and its file's public id; its " +
    "chunks are replaced by the re-index this queues (202), the old ones answering until it ends. The same bytes as " +
    "now change nothing (200).",
  security: apiTokenSecurity,
  consumes: ["multipart/form-data"],
  params: sourceIdParamsSchema,
  body: replaceSourceFileBodySchema,
  response: {
    200: jsonResponse("The same file as the source has; nothing changed.", sourceResponseSchema),
    202: jsonResponse("The file replaced; the source is re-indexed.", sourceResponseSchema),
    ...bodyErrors,
    ...tokenErrors("sources:write"),
    404: sourceNotFound,
    413: fileTooLarge,
    415: unsupportedFile,
    422: errorResponse("`validation_failed`: no file part, a source that is not of kind `file`, or bytes another file source of the agent holds."),
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
