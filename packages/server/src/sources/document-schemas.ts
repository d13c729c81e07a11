import {
  sourceDocumentListQuerySchema,
  sourceDocumentListResponseSchema,
  sourceDocumentParamsSchema,
  sourceDocumentResponseSchema,
  sourceDocumentSchema,
  sourceDocumentDetailSchema,
  sourceIdParamsSchema,
  updateSourceDocumentBodySchema,
} from "@frontdesk/contracts";
import { apiTokenSecurity, bodyErrors, errorResponse, errors, jsonResponse } from "../openapi/route-responses.js";
import { componentSchemas } from "../openapi/component-schemas.js";

componentSchemas.add(sourceDocumentSchema, { id: "SourceDocument", description: "A document of a source (a page of a sitemap, a post, a URL's page, a text) with what indexing made of it." });
componentSchemas.add(sourceDocumentDetailSchema, { id: "SourceDocumentDetail", description: "A document with the text its last indexing extracted and its chunks, in order." });

const tags = ["sources"];
const readErrors = {
  401: errors.apiToken,
  403: errorResponse("`missing_ability`: the token has neither `sources:read` nor `sources:write` (which implies reading)."),
  429: errors.rateLimited,
  500: errors.internal,
} as const;

/** GET /api/v1/workspace/sources/{id}/documents (beyond the spec: issue 32 §3). */
export const listSourceDocumentsRouteSchema = {
  tags,
  operationId: "listSourceDocuments",
  summary: "List a source's documents",
  description:
    "Beyond the spec. The documents of a source of the token's workspace in the order they were found, 50 a page by default " +
    "(`limit` up to 200, `cursor` from `next_cursor`): each with its URL, title, status (`pending`, `indexed`, `failed`, `excluded`), " +
    "size, last successful fetch, chunk count and last error.",
  security: apiTokenSecurity,
  params: sourceIdParamsSchema,
  querystring: sourceDocumentListQuerySchema,
  response: {
    200: jsonResponse("A page of the documents.", sourceDocumentListResponseSchema),
    ...readErrors,
    404: errorResponse("`source_not_found`: no source with this id in the token's workspace."),
    422: errorResponse("`validation_failed`: a bad id, `limit` or `cursor` (`fields` names it)."),
  },
};

/** GET /api/v1/workspace/sources/{id}/documents/{document_id} (beyond the spec). */
export const getSourceDocumentRouteSchema = {
  tags,
  operationId: "getSourceDocument",
  summary: "Read a document with its text and chunks",
  description: "Beyond the spec. One document of a source of the token's workspace with the text its last indexing extracted and its chunks in order.",
  security: apiTokenSecurity,
  params: sourceDocumentParamsSchema,
  response: {
    200: jsonResponse("The document.", sourceDocumentResponseSchema),
    ...readErrors,
    404: errorResponse("`source_not_found`: no source with this id in the token's workspace; `document_not_found`: the source has no such document."),
    422: errorResponse("`validation_failed`: an id that cannot be one (`fields` names it)."),
  },
};

/** PATCH /api/v1/workspace/sources/{id}/documents/{document_id} (beyond the spec): the console's Exclude switch. */
export const updateSourceDocumentRouteSchema = {
  tags,
  operationId: "updateSourceDocument",
  summary: "Exclude a document from the knowledge, or include it again",
  description:
    "Beyond the spec; the console's Exclude switch. `excluded: true` deletes the document's chunks in the same transaction that marks " +
    "it excluded and moves the agent's knowledge revision: the next answer cannot cite it, and re-syncs (scheduled or pushed) skip it. " +
    "`excluded: false` makes it pending and queues its indexing. Excluding an excluded document, or including an included one, changes nothing.",
  security: apiTokenSecurity,
  params: sourceDocumentParamsSchema,
  body: updateSourceDocumentBodySchema,
  response: {
    200: jsonResponse("The document as it is now.", sourceDocumentResponseSchema),
    ...bodyErrors,
    401: errors.apiToken,
    403: errorResponse("`missing_ability`: the token lacks `sources:write`."),
    404: errorResponse("`source_not_found`: no source with this id in the token's workspace; `document_not_found`: the source has no such document."),
    422: errorResponse("`validation_failed`: an id that cannot be one, or `excluded` missing or not a boolean (`fields` names it)."),
    429: errors.rateLimited,
  },
};
