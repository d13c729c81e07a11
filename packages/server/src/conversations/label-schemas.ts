import { conversationLabelParamsSchema, conversationLabelsResponseSchema, labelListResponseSchema } from "@frontdesk/contracts";
import { consoleSecurity, consoleWriteErrors } from "../console/console-responses.js";
import { apiTokenSecurity, errorResponse, errors, jsonResponse } from "../openapi/route-responses.js";

const notFound = errorResponse(
  "`conversation_not_found`: no conversation with this id in the workspace; `label_not_found`: no label with `label_id` in the workspace " +
    "(another workspace's conversation or label included).",
);
const labelled = jsonResponse("The conversation's labels now, in the order they were put on.", conversationLabelsResponseSchema);

export const putConversationLabelRouteSchema = {
  tags: ["console"],
  operationId: "labelConsoleConversation",
  summary: "Put a label on a conversation",
  description:
    "Puts the workspace's label on the conversation; putting it on again changes nothing. A label newly put on raises the " +
    "`conversation.labelled` webhook event. Any role.",
  security: consoleSecurity,
  params: conversationLabelParamsSchema,
  response: { 200: labelled, ...consoleWriteErrors, 404: notFound },
};

export const deleteConversationLabelRouteSchema = {
  tags: ["console"],
  operationId: "unlabelConsoleConversation",
  summary: "Take a label off a conversation",
  description: "Takes the workspace's label off the conversation; one it does not carry changes nothing. Any role.",
  security: consoleSecurity,
  params: conversationLabelParamsSchema,
  response: { 200: labelled, ...consoleWriteErrors, 404: notFound },
};

/** The same through the workspace API, for automations holding an API token with `conversations:label`. */
const tokenErrors = {
  401: errors.apiToken,
  403: errorResponse("`missing_ability`: the token lacks `conversations:label`."),
  422: errorResponse("`validation_failed`: an id in the path is invalid."),
  429: errors.rateLimited,
  500: errors.internal,
};

export const listLabelsWithTokenRouteSchema = {
  tags: ["labels"],
  operationId: "listWorkspaceLabels",
  summary: "List the workspace's labels (API token)",
  description: "Every label of the token's workspace by name, with its id to put it on a conversation. Needs `conversations:label`.",
  security: apiTokenSecurity,
  response: { 200: jsonResponse("The labels.", labelListResponseSchema), ...tokenErrors },
};

export const putConversationLabelWithTokenRouteSchema = {
  tags: ["labels"],
  operationId: "labelWorkspaceConversation",
  summary: "Put a label on a conversation (API token)",
  description:
    "What `labelConsoleConversation` does, for an automation (e.g. a receiver of the webhooks) holding an API token with " +
    "`conversations:label`. The `conversation.labelled` event names the token as `by`.",
  security: apiTokenSecurity,
  params: conversationLabelParamsSchema,
  response: { 200: labelled, ...tokenErrors, 404: notFound },
};

export const deleteConversationLabelWithTokenRouteSchema = {
  tags: ["labels"],
  operationId: "unlabelWorkspaceConversation",
  summary: "Take a label off a conversation (API token)",
  description: "What `unlabelConsoleConversation` does, with an API token holding `conversations:label`.",
  security: apiTokenSecurity,
  params: conversationLabelParamsSchema,
  response: { 200: labelled, ...tokenErrors, 404: notFound },
};
