import {
  consoleIdSchema,
  consoleSourceDetailSchema,
  consoleSourceListQuerySchema,
  consoleSourceListResponseSchema,
  consoleSourceResponseSchema,
  consoleSourceSchema,
  createConsoleSourceBodySchema,
  tryQuestionBodySchema,
  tryQuestionResponseSchema,
  updateConsoleSourceBodySchema,
} from "@frontdesk/contracts";
import { z } from "zod";
import { componentSchemas } from "../../openapi/component-schemas.js";
import { errorResponse, errors, jsonResponse, noContentResponse } from "../../openapi/route-responses.js";
import { consoleAdminSecurity, consoleReadErrors, consoleSecurity, consoleWriteErrors } from "../console-responses.js";

componentSchemas.add(consoleSourceSchema, { id: "ConsoleSource", description: "A source of an agent's knowledge with its live progress, as the Knowledge screen shows it." });
componentSchemas.add(consoleSourceDetailSchema, { id: "ConsoleSourceDetail", description: "A source with its progress and the pages that failed, with why." });
componentSchemas.add(tryQuestionBodySchema, { id: "TryQuestionRequest" });

const tags = ["console"];
export const sourceIdParamsSchema = z.object({ id: consoleIdSchema });
const sourceNotFound = errorResponse("`source_not_found`: no source with this id in the operator's workspace (another workspace's included).");
const agentNotFound = errorResponse("`agent_not_found`: no agent with this id in the operator's workspace.");
const badId = errorResponse("`validation_failed`: the id cannot be a source id (`fields` names it).");
const adminOnly = errorResponse(
  "`forbidden`: only an admin may change sources (the operator is an `agent`); `csrf_origin_mismatch`: the request must carry `Origin` equal to FRONTDESK_PUBLIC_URL's origin.",
);

export const listSourcesRouteSchema = {
  tags,
  operationId: "listConsoleSources",
  summary: "List sources with their progress",
  description:
    "The sources of one agent (`agent_id`, oldest first) or of the whole workspace (the 500 newest), each with its status, whether a sync " +
    "is under way, its page counts (found, indexed, failed, pending) and its last error in words. Any operator may read them; poll while `syncing`.",
  security: consoleSecurity,
  querystring: consoleSourceListQuerySchema,
  response: {
    200: jsonResponse("The sources.", consoleSourceListResponseSchema),
    ...consoleReadErrors,
    404: agentNotFound,
    422: errorResponse("`validation_failed`: `agent_id` cannot be an id."),
  },
};

export const getSourceRouteSchema = {
  tags,
  operationId: "getConsoleSource",
  summary: "Read a source with its failed pages",
  description: "One source with its progress and up to 50 pages whose last attempt failed, each with the error in words.",
  security: consoleSecurity,
  params: sourceIdParamsSchema,
  response: { 200: jsonResponse("The source.", consoleSourceResponseSchema), ...consoleReadErrors, 404: sourceNotFound, 422: badId },
};

export const createSourceRouteSchema = {
  tags,
  operationId: "createConsoleSource",
  summary: "Add a URL, a sitemap, a text or a file",
  description:
    "Admins only; the Sources API's use case without an API token. Queues the source for indexing: a text or a file the agent " +
    "already has (same SHA-256) returns the existing source (200) unless it had failed; a URL or sitemap pushed again returns the " +
    "existing source (200) and re-syncs it. A file is sent as multipart/form-data (`agent_id`, `kind=file`, the file in the part " +
    "`file`, optional `title`, `source_url`, `csv_mode`: `curated` or `chunks` for a CSV of question,answer rows), read only once the " +
    "operator is known to be an admin, and refused past FRONTDESK_UPLOAD_MAX_BYTES or when its bytes are not a kind a file source takes.",
  security: consoleAdminSecurity,
  consumes: ["application/json", "multipart/form-data"],
  body: createConsoleSourceBodySchema,
  response: {
    200: jsonResponse("The existing source (a duplicate), re-synced when it is a URL or a sitemap.", consoleSourceResponseSchema),
    201: jsonResponse("The new source, `status: \"pending\"`.", consoleSourceResponseSchema),
    ...consoleWriteErrors,
    403: adminOnly,
    404: agentNotFound,
    413: errorResponse("`file_too_large`: the file is larger than FRONTDESK_UPLOAD_MAX_BYTES (25 MB by default); reading stopped there."),
    415: errorResponse(
      "`unsupported_media_type`: the file's content (read from its bytes, not its name) is not PDF, DOCX, Markdown, plain text, HTML or CSV; or the body is neither JSON nor multipart/form-data.",
    ),
    503: errorResponse("`service_unavailable`: the source changed while it was being created (a concurrent delete); retry."),
  },
};

export const resyncSourceRouteSchema = {
  tags,
  operationId: "resyncConsoleSource",
  summary: "Sync a source again",
  description:
    "Admins only. Fetches a URL or a sitemap anew (a text is re-indexed). A failed source goes back to `pending`; an indexed one keeps " +
    "answering until the sync ends.",
  security: consoleAdminSecurity,
  params: sourceIdParamsSchema,
  response: { 202: jsonResponse("The sync is queued.", consoleSourceResponseSchema), ...consoleWriteErrors, 403: adminOnly, 404: sourceNotFound, 422: badId },
};

export const updateSourceRouteSchema = {
  tags,
  operationId: "updateConsoleSource",
  summary: "Change a source's re-sync schedule or a sitemap's URL patterns",
  description:
    "Admins only. `include_patterns` and `exclude_patterns` (a sitemap only) say which of its pages are crawled, as glob-like patterns of " +
    "a page's path and query (`/blog/*`; `*` is any run of characters): pages they now leave out are deleted with their chunks at once, " +
    "and a re-sync is queued for pages they now let in. " +
    "`schedule` (`off`, `hourly`, `daily`, `weekly`) says how often a url or sitemap source is re-synced on its own: " +
    "conditional requests, only the pages whose content changed re-embedded, pages gone from the sitemap or answering 404/410 removed. " +
    "The next re-sync is one interval from now plus the source's stable jitter (up to 10 % of the interval); `next_sync_at` says when. " +
    "A text or WordPress source only takes `off`.",
  security: consoleAdminSecurity,
  params: sourceIdParamsSchema,
  body: updateConsoleSourceBodySchema,
  response: {
    200: jsonResponse("The source, with its schedule and next re-sync.", consoleSourceResponseSchema),
    ...consoleWriteErrors,
    403: adminOnly,
    404: sourceNotFound,
    422: errorResponse(
      "`validation_failed`: a bad id, a schedule that is not one of the four, a schedule on a text or WordPress source (`fields.schedule`), " +
        "a bad pattern (`fields` names it, e.g. `exclude_patterns.0`) or patterns on a source that is not a sitemap.",
    ),
  },
};

export const deleteSourceRouteSchema = {
  tags,
  operationId: "deleteConsoleSource",
  summary: "Delete a source",
  description: "Admins only. Deletes the source with its pages and chunks; the agent stops citing it at once.",
  security: consoleAdminSecurity,
  params: sourceIdParamsSchema,
  response: { 204: noContentResponse("Deleted."), ...consoleWriteErrors, 403: adminOnly, 404: sourceNotFound, 422: badId },
};

export const tryQuestionRouteSchema = {
  tags,
  operationId: "tryConsoleQuestion",
  summary: "Try a question against an agent's knowledge",
  description:
    "Answers a question as the agent would answer a visitor (a curated answer, a request for a person, small talk, or retrieval and " +
    "the composition of a reply), outside any conversation, and stores nothing: each stage the question went through explained in " +
    "words (which page, which of the question's words it holds, why the bot is sure or unsure), the passages read with the words they " +
    "share with the question, and the answer with its citations. Any operator; limited to 120 a minute per operator.",
  security: consoleSecurity,
  body: tryQuestionBodySchema,
  response: {
    200: jsonResponse("What the bot would answer, and why, stage by stage.", tryQuestionResponseSchema),
    ...consoleWriteErrors,
    404: agentNotFound,
    429: errors.rateLimited,
  },
};
