import {
  sourceDocumentListQuerySchema,
  sourceDocumentListResponseSchema,
  sourceDocumentParamsSchema,
  sourceDocumentResponseSchema,
  updateSourceDocumentBodySchema,
} from "@frontdesk/contracts";
import { errorResponse, jsonResponse } from "../../openapi/route-responses.js";
import { consoleAdminSecurity, consoleReadErrors, consoleSecurity, consoleWriteErrors } from "../console-responses.js";
import { sourceIdParamsSchema } from "./knowledge-schemas.js";
// The SourceDocument components are registered with the Sources API's schemas.
import "../../sources/document-schemas.js";

const tags = ["console"];
const sourceNotFound = errorResponse("`source_not_found`: no source with this id in the operator's workspace (another workspace's included).");
const documentNotFound = errorResponse(
  "`source_not_found`: no source with this id in the operator's workspace; `document_not_found`: the source has no such document.",
);

export const listConsoleSourceDocumentsRouteSchema = {
  tags,
  operationId: "listConsoleSourceDocuments",
  summary: "List a source's pages",
  description:
    "The pages (or posts, or text) of a source in the order they were found, 50 a page by default: status (`pending`, `indexed`, " +
    "`failed`, `excluded`), title, size, last fetch, chunk count and last error. Any operator.",
  security: consoleSecurity,
  params: sourceIdParamsSchema,
  querystring: sourceDocumentListQuerySchema,
  response: {
    200: jsonResponse("A page of the source's documents.", sourceDocumentListResponseSchema),
    ...consoleReadErrors,
    404: sourceNotFound,
    422: errorResponse("`validation_failed`: a bad id, `limit` or `cursor` (`fields` names it)."),
  },
};

export const getConsoleSourceDocumentRouteSchema = {
  tags,
  operationId: "getConsoleSourceDocument",
  summary: "Read a page's extracted text and chunks",
  description: "One page of a source with the text its last indexing extracted and the chunks answers retrieve, in order. Any operator.",
  security: consoleSecurity,
  params: sourceDocumentParamsSchema,
  response: {
    200: jsonResponse("The page.", sourceDocumentResponseSchema),
    ...consoleReadErrors,
    404: documentNotFound,
    422: errorResponse("`validation_failed`: an id that cannot be one (`fields` names it)."),
  },
};

export const updateConsoleSourceDocumentRouteSchema = {
  tags,
  operationId: "updateConsoleSourceDocument",
  summary: "Exclude a page from the knowledge, or include it again",
  description:
    "Admins only. `excluded: true` deletes the page's chunks in the same transaction that marks it excluded and moves the agent's " +
    "knowledge revision: the next answer cannot cite it, and re-syncs (scheduled or asked for) skip it. `excluded: false` makes it " +
    "pending and queues its indexing.",
  security: consoleAdminSecurity,
  params: sourceDocumentParamsSchema,
  body: updateSourceDocumentBodySchema,
  response: {
    200: jsonResponse("The page as it is now.", sourceDocumentResponseSchema),
    ...consoleWriteErrors,
    403: errorResponse(
      "`forbidden`: only an admin may exclude pages (the operator is an `agent`); `csrf_origin_mismatch`: the request must carry `Origin` equal to FRONTDESK_PUBLIC_URL's origin.",
    ),
    404: documentNotFound,
  },
};
