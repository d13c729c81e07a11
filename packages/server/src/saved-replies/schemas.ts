import {
  createSavedReplyBodySchema,
  renderedSavedReplyResponseSchema,
  renderSavedReplyBodySchema,
  SAVED_REPLIES_PER_SCOPE_MAX,
  savedReplyListResponseSchema,
  savedReplyParamsSchema,
  savedReplyResponseSchema,
  savedReplySchema,
  updateSavedReplyBodySchema,
} from "@frontdesk/contracts";
import { consoleErrorResponses, consoleReadErrors, consoleSecurity, consoleWriteErrors } from "../console/console-responses.js";
import { componentSchemas } from "../openapi/component-schemas.js";
import { documentMembers } from "../openapi/document-members.js";
import { errorResponse, jsonResponse, noContentResponse } from "../openapi/route-responses.js";

documentMembers(savedReplySchema);
componentSchemas.add(savedReplySchema, {
  id: "SavedReply",
  description: "A saved reply: the workspace's (every operator's, managed by admins) or one operator's own, inserted by its shortcut.",
});

const tags = ["console"];
const forbidden = errorResponse(
  "`csrf_origin_mismatch`: the request's `Origin` is not FRONTDESK_PUBLIC_URL's; `forbidden`: an agent asked to change the workspace's saved replies (admins only).",
);
const notFound = errorResponse("`not_found`: no saved reply with this id is the workspace's or the operator's own (another operator's personal replies read as unknown).");
const invalid = errorResponse(
  "`validation_failed`: a field is invalid, with why in `fields`: an unknown variable in `content` (it is refused when saved, never when used), " +
    `a shortcut already taken in the scope, or a scope holding ${SAVED_REPLIES_PER_SCOPE_MAX} replies already.`,
);

export const listSavedRepliesRouteSchema = {
  tags,
  operationId: "listConsoleSavedReplies",
  summary: "List the saved replies",
  description: "The workspace's saved replies and the operator's own, by shortcut. Another operator's personal replies are never listed. Any role.",
  security: consoleSecurity,
  response: { 200: jsonResponse("The saved replies.", savedReplyListResponseSchema), ...consoleReadErrors },
};

export const createSavedReplyRouteSchema = {
  tags,
  operationId: "createConsoleSavedReply",
  summary: "Create a saved reply",
  description:
    "A personal reply (`scope: \"personal\"`, the default: any operator, for themselves) or the workspace's (`scope: \"workspace\"`: admins only). " +
    "Its `content` may name `{{visitor.name}}`, `{{agent.name}}` and `{{operator.name}}`, with an optional fallback (`{{visitor.name|there}}`); " +
    "any other variable is refused here with 422.",
  security: consoleSecurity,
  body: createSavedReplyBodySchema,
  response: { 201: jsonResponse("The saved reply.", savedReplyResponseSchema), ...consoleWriteErrors, 403: forbidden, 422: invalid },
};

export const updateSavedReplyRouteSchema = {
  tags,
  operationId: "updateConsoleSavedReply",
  summary: "Change a saved reply",
  description: "Changes the title, shortcut or text of one's own reply, or (admins) of the workspace's. Its scope does not change.",
  security: consoleSecurity,
  params: savedReplyParamsSchema,
  body: updateSavedReplyBodySchema,
  response: { 200: jsonResponse("The saved reply.", savedReplyResponseSchema), ...consoleWriteErrors, 403: forbidden, 404: notFound, 422: invalid },
};

export const deleteSavedReplyRouteSchema = {
  tags,
  operationId: "deleteConsoleSavedReply",
  summary: "Delete a saved reply",
  description: "Deletes one's own reply, or (admins) one of the workspace's.",
  security: consoleSecurity,
  params: savedReplyParamsSchema,
  response: {
    204: noContentResponse("Deleted."),
    401: consoleErrorResponses.unauthenticated,
    403: forbidden,
    404: notFound,
    422: errorResponse("`validation_failed`: the id is invalid."),
    500: consoleReadErrors[500],
  },
};

export const renderSavedReplyRouteSchema = {
  tags,
  operationId: "renderConsoleSavedReply",
  summary: "Fill a saved reply's variables for a conversation",
  description:
    "The reply's text with its variables filled from the conversation: `{{visitor.name}}` the name the visitor left (else the fallback, " +
    "or nothing), `{{agent.name}}` the conversation's agent, `{{operator.name}}` the signed-in operator. Nothing is sent: the console puts " +
    "the text in the reply box, and `POST /conversations/{id}/messages` sends it.",
  security: consoleSecurity,
  params: savedReplyParamsSchema,
  body: renderSavedReplyBodySchema,
  response: {
    200: jsonResponse("The filled text.", renderedSavedReplyResponseSchema),
    ...consoleWriteErrors,
    404: errorResponse("`not_found`: no such saved reply of the workspace or the operator; `conversation_not_found`: no such conversation in the workspace."),
  },
};
