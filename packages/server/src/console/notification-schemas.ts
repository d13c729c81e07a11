import {
  markNotificationsReadBodySchema,
  markNotificationsReadResponseSchema,
  notificationListQuerySchema,
  notificationListResponseSchema,
  notificationSchema,
} from "@frontdesk/contracts";
import { componentSchemas } from "../openapi/component-schemas.js";
import { errorResponse, jsonResponse } from "../openapi/route-responses.js";
import { consoleReadErrors, consoleSecurity, consoleWriteErrors } from "./console-responses.js";
import { documentMembers } from "../openapi/document-members.js";

documentMembers(notificationListQuerySchema);
documentMembers(notificationListResponseSchema);

componentSchemas.add(notificationSchema, {
  id: "Notification",
  description:
    "An entry of the operator's inbox. `kind` `human_requested`: a visitor asked for a person in `conversation_id`; " +
    "`payload` holds `agent_id`, `visitor_id` and `reason`.",
});
componentSchemas.add(markNotificationsReadBodySchema, {
  id: "MarkNotificationsReadRequest",
  description: "Either `ids` (1–100 of the operator's notifications) or `all: true`.",
});

const tags = ["console"];

export const listNotificationsRouteSchema = {
  tags,
  operationId: "listConsoleNotifications",
  summary: "List the operator's notifications",
  description:
    "The signed-in operator's own inbox: unread first, then newest, `limit` per page (`next_cursor` continues), with the " +
    "number still unread. A `notification.created` event on the workspace channel says when to fetch it again.",
  security: consoleSecurity,
  querystring: notificationListQuerySchema,
  response: {
    200: jsonResponse("A page of notifications.", notificationListResponseSchema),
    ...consoleReadErrors,
    422: errorResponse("`validation_failed`: `cursor` or `limit` is invalid (`fields` names it)."),
  },
};

export const markNotificationsReadRouteSchema = {
  tags,
  operationId: "markConsoleNotificationsRead",
  summary: "Mark notifications read",
  description:
    "Marks the given notifications of the signed-in operator read (`ids`), or all of them (`all: true`). Ids that are " +
    "unknown, already read or another operator's are skipped, never an error: `marked` counts the notifications this call marked.",
  security: consoleSecurity,
  body: markNotificationsReadBodySchema,
  response: {
    200: jsonResponse("How many were marked, and how many remain unread.", markNotificationsReadResponseSchema),
    ...consoleWriteErrors,
  },
};
