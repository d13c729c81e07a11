import { exportedConversationSchema, userVisitorQuerySchema, visitorExportResponseSchema, visitorExportSchema, visitorParamsSchema } from "@frontdesk/contracts";
import { componentSchemas } from "../openapi/component-schemas.js";
import { bodyErrors, errorResponse, errors, jsonResponse, noContentResponse, sessionSecurity } from "../openapi/route-responses.js";
import { consoleAdminSecurity, consoleErrorResponses, consoleReadErrors, consoleSecurity, consoleWriteErrors } from "../console/console-responses.js";
import { documentMembers } from "../openapi/document-members.js";

documentMembers(visitorExportSchema);
documentMembers(exportedConversationSchema);
componentSchemas.add(visitorExportSchema, {
  id: "VisitorExport",
  description:
    "Everything Frontdesk holds about one visitor of an agent (an access request): the visitor, their conversations with every " +
    "message, satisfaction rating and coupon, their leads and their widget events. `format` names this shape's version.",
});

const ERASED =
  "everything of the visitor with this agent is deleted in one transaction: their conversations (messages, pages, browser, " +
  "satisfaction, coupon, operators' notifications and read marks), their leads, their widget events and the visitor. Irreversible. " +
  "An audit record remains with counts only (what kinds of data, how many, when, who asked), never the visitor's id or any content. " +
  "Open consoles get `conversation.deleted` on the workspace channel for each conversation.";

export const eraseMeRouteSchema = {
  tags: ["widget"],
  operationId: "eraseMe",
  summary: "Erase the visitor and everything of theirs",
  description:
    `The visitor behind the session token asks to be forgotten: ${ERASED} The token is revoked: every other route answers it 401 ` +
    "`invalid_token`. Idempotent: repeating the call with the same (unexpired) token answers 204 again and changes nothing, since the " +
    "visitor is gone (a retry after a lost answer must not look like a failure); an expired or forged token is still 401. Works while the " +
    "agent is unpublished. Counts against the session token's budget.",
  security: sessionSecurity,
  response: {
    204: noContentResponse("Erased (or already erased)."),
    ...bodyErrors,
    401: errors.sessionToken,
    429: errors.rateLimited,
  },
};

const tags = ["console"];
const visitorNotFound = errorResponse("`visitor_not_found`: no visitor with this id in the operator's workspace (never was, or already erased).");

export const eraseVisitorRouteSchema = {
  tags,
  operationId: "eraseConsoleVisitor",
  summary: "Erase a visitor (a data subject's erasure request)",
  description:
    `An admin erases a visitor of the workspace: ${ERASED} A repeated call answers 404 \`visitor_not_found\` (nothing of the visitor ` +
    "is kept to recognise them by). Admins only.",
  security: consoleAdminSecurity,
  params: visitorParamsSchema,
  response: {
    204: noContentResponse("Erased."),
    401: consoleErrorResponses.unauthenticated,
    403: consoleErrorResponses.csrf,
    404: visitorNotFound,
    422: consoleWriteErrors[422],
    500: consoleReadErrors[500],
  },
};

export const exportVisitorRouteSchema = {
  tags,
  operationId: "exportConsoleVisitor",
  summary: "Export a visitor's data (a data subject's access request)",
  description: "Everything the workspace holds about the visitor, as one JSON document (the `VisitorExport` shape). Admins only.",
  security: consoleAdminSecurity,
  params: visitorParamsSchema,
  response: {
    200: jsonResponse("The visitor's data.", visitorExportResponseSchema),
    401: consoleErrorResponses.unauthenticated,
    403: errorResponse("`forbidden`: the route is for admins and the operator is an agent."),
    404: visitorNotFound,
    422: errorResponse("`validation_failed`: the id is not an id."),
    500: consoleReadErrors[500],
  },
};

const userNotFound = errorResponse(
  "`visitor_not_found`: the agent is not the workspace's, or it has no visitor with this verified user id (never was, or already erased).",
);

export const eraseUserVisitorRouteSchema = {
  tags,
  operationId: "eraseConsoleUserVisitor",
  summary: "Erase a verified user's visitor (by the site's user id)",
  description:
    "The same erasure as DELETE /visitors/{id}, of the visitor the agent's verified `user_id` names (the site's own id for its user: " +
    `see init's \`user_id\` and \`user_hash\`): ${ERASED} A later verified init of the same user starts a new visitor. Admins only.`,
  security: consoleAdminSecurity,
  querystring: userVisitorQuerySchema,
  response: {
    204: noContentResponse("Erased."),
    401: consoleErrorResponses.unauthenticated,
    403: consoleErrorResponses.csrf,
    404: userNotFound,
    422: consoleWriteErrors[422],
    500: consoleReadErrors[500],
  },
};

export const exportUserVisitorRouteSchema = {
  tags,
  operationId: "exportConsoleUserVisitor",
  summary: "Export a verified user's visitor data (by the site's user id)",
  description: "The same export as GET /visitors/{id}/export, of the visitor the agent's verified `user_id` names. Admins only.",
  security: consoleAdminSecurity,
  querystring: userVisitorQuerySchema,
  response: {
    200: jsonResponse("The visitor's data.", visitorExportResponseSchema),
    401: consoleErrorResponses.unauthenticated,
    403: errorResponse("`forbidden`: the route is for admins and the operator is an agent."),
    404: userNotFound,
    422: errorResponse("`validation_failed`: `agent_id` is not an id, or `user_id` is empty, over 256 characters or holds control characters."),
    500: consoleReadErrors[500],
  },
};
