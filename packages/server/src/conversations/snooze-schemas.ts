import { conversationIdParamsSchema, conversationSnoozeResponseSchema, snoozeConversationBodySchema } from "@frontdesk/contracts";
import { consoleSecurity, consoleWriteErrors } from "../console/console-responses.js";
import { componentSchemas } from "../openapi/component-schemas.js";
import { errorResponse, jsonResponse } from "../openapi/route-responses.js";

componentSchemas.add(snoozeConversationBodySchema, { id: "SnoozeConversationRequest" });
componentSchemas.add(conversationSnoozeResponseSchema.shape.data, {
  id: "ConversationSnoozeState",
  description: "A conversation's snooze after a change: `snooze` null when it is back in the open view.",
});

const tags = ["console"];

const notFound = errorResponse("`conversation_not_found`: no conversation of the operator's workspace has this id (another workspace's ids included).");

export const snoozeConversationRouteSchema = {
  tags,
  operationId: "snoozeConversation",
  summary: "Snooze a conversation",
  description:
    "The conversation leaves the inbox's open view (`GET /conversations?snoozed=false`) and shows under `snoozed=true` until " +
    "`until` (an ISO 8601 time in the future, at most a year ahead) or, with `visitor_reply`, until the visitor writes. The " +
    "visitor's next message ends any snooze, whichever comes first. Snoozing again replaces the snooze. The workspace's " +
    "consoles hear `conversation.snoozed` on the workspace channel. Any operator of the workspace may snooze an open conversation.",
  security: consoleSecurity,
  params: conversationIdParamsSchema,
  body: snoozeConversationBodySchema,
  response: {
    200: jsonResponse("The conversation's snooze.", conversationSnoozeResponseSchema),
    ...consoleWriteErrors,
    404: notFound,
    409: errorResponse("`conversation_closed`: a closed conversation is not snoozed."),
    422: errorResponse("`validation_failed`: `until` is neither a time with a UTC offset nor `visitor_reply`, is not in the future, or is more than a year ahead (`fields.until`)."),
  },
};

export const unsnoozeConversationRouteSchema = {
  tags,
  operationId: "unsnoozeConversation",
  summary: "Bring a snoozed conversation back",
  description: "Ends the conversation's snooze now: it is back in the open view. A conversation not snoozed stays as it is (200, `snooze` null).",
  security: consoleSecurity,
  params: conversationIdParamsSchema,
  response: {
    200: jsonResponse("The conversation's snooze (null).", conversationSnoozeResponseSchema),
    ...consoleWriteErrors,
    404: notFound,
  },
};
