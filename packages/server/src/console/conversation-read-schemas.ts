import {
  consoleIdSchema,
  consoleMessageSchema,
  conversationDetailResponseSchema,
  conversationListItemSchema,
  conversationListQuerySchema,
  conversationListResponseSchema,
  markConversationReadBodySchema,
  markConversationReadResponseSchema,
  messagesSinceQuerySchema,
  messagesSinceResponseSchema,
} from "@frontdesk/contracts";
import { z } from "zod";
import { componentSchemas } from "../openapi/component-schemas.js";
import { errorResponse, errors, jsonResponse } from "../openapi/route-responses.js";
import { documentMembers } from "../openapi/document-members.js";
import { consoleReadErrors, consoleSecurity, consoleWriteErrors } from "./console-responses.js";

for (const schema of [conversationListQuerySchema, messagesSinceQuerySchema, conversationListItemSchema, conversationListResponseSchema, conversationDetailResponseSchema.shape.data]) {
  documentMembers(schema);
}
documentMembers(messagesSinceResponseSchema.shape.data);

componentSchemas.add(conversationListItemSchema, {
  id: "ConsoleConversationSummary",
  description: "A conversation in the console's list: its state, visitor, last message and the signed-in operator's unread count.",
});
componentSchemas.add(conversationDetailResponseSchema.shape.data, {
  id: "ConsoleConversation",
  description:
    "A conversation as the console shows it: state, visitor (pages, browser, lead), satisfaction, coupon, the operator's read " +
    "marker and its latest 100 messages (oldest first; `has_earlier_messages` tells whether earlier ones exist).",
});
componentSchemas.add(consoleMessageSchema, {
  id: "ConsoleMessage",
  description:
    "A stored message with its `seq` (its place among the conversation's events; null if stored before seqs existed), " +
    "its author (operator messages), citations and low-confidence flag.",
});
componentSchemas.add(markConversationReadBodySchema, { id: "MarkConversationReadRequest" });

const tags = ["console"];

/** `{id}` of the conversation routes. */
export const conversationIdParamsSchema = z.object({ id: consoleIdSchema });

const notFound = errorResponse("`conversation_not_found`: no conversation with this id in the operator's workspace (another workspace's id included).");
const badQuery = errorResponse("`validation_failed`: a query parameter or the path's id is invalid (`fields` names it, e.g. `querystring.cursor`).");

export const listConversationsRouteSchema = {
  tags,
  operationId: "listConsoleConversations",
  summary: "List conversations",
  description:
    "The workspace's conversations, newest activity first, `limit` per page. Conversations in which nothing was written " +
    "and that never left `bot` (a widget opened, nothing asked) are left out. Keyset pagination: `next_cursor` continues " +
    "after the page's last row, so conversations written in meanwhile never shift a page (they move to the top: reload " +
    "the first page, or follow the workspace channel). Filters combine (AND).",
  security: consoleSecurity,
  querystring: conversationListQuerySchema,
  response: {
    200: jsonResponse("A page of conversations.", conversationListResponseSchema),
    ...consoleReadErrors,
    404: errorResponse("`label_not_found`: `label_id` is no label of the operator's workspace."),
    422: badQuery,
  },
};

export const showConversationRouteSchema = {
  tags,
  operationId: "getConsoleConversation",
  summary: "Read a conversation",
  description:
    "One conversation with its visitor, satisfaction, coupon and latest messages. `seq` is its latest event seq: after " +
    "subscribing to its channel, apply events above it, and after a reconnect fetch `/messages?after_seq=<last seq>`. " +
    "Reading does not mark it read (see `markConsoleConversationRead`).",
  security: consoleSecurity,
  params: conversationIdParamsSchema,
  response: {
    200: jsonResponse("The conversation.", conversationDetailResponseSchema),
    ...consoleReadErrors,
    404: notFound,
    422: badQuery,
  },
};

export const listMessagesSinceRouteSchema = {
  tags,
  operationId: "listConsoleConversationMessages",
  summary: "Catch up on a conversation's messages",
  description:
    "Every message whose seq is above `after_seq`, in seq order and without gaps (at most `limit`; `has_more` says to ask " +
    "again from the last one), and the conversation's state: apply it when its `updated_seq` is above `after_seq`.",
  security: consoleSecurity,
  params: conversationIdParamsSchema,
  querystring: messagesSinceQuerySchema,
  response: {
    200: jsonResponse("The messages since `after_seq`.", messagesSinceResponseSchema),
    ...consoleReadErrors,
    404: notFound,
    422: badQuery,
  },
};

export const markConversationReadRouteSchema = {
  tags,
  operationId: "markConsoleConversationRead",
  summary: "Mark a conversation read",
  description:
    "Moves the signed-in operator's read marker to `seq` (the last message the console showed; the conversation's latest " +
    "seq when omitted). The marker is per operator and never moves backwards; the unread count is the visitor messages " +
    "above it. The console calls this when it shows the conversation and when messages arrive while it is shown.",
  security: consoleSecurity,
  params: conversationIdParamsSchema,
  body: markConversationReadBodySchema,
  response: {
    200: jsonResponse("The operator's read marker and unread count.", markConversationReadResponseSchema),
    ...consoleWriteErrors,
    404: notFound,
    422: errors.validationFailed,
  },
};
