import {
  assignConversationBodySchema,
  conversationIdParamsSchema,
  conversationStateResponseSchema,
  messageHeadersSchema,
  operatorMessageBodySchema,
  operatorMessageResponseSchema,
  operatorTypingBodySchema,
} from "@frontdesk/contracts";
import { consoleSecurity, consoleWriteErrors } from "../console/console-responses.js";
import { errorResponse, jsonResponse, noContentResponse } from "../openapi/route-responses.js";

const tags = ["console"];

const notFound = errorResponse("`conversation_not_found`: no conversation of the operator's workspace has this id (another workspace's ids included).");

export const assignConversationRouteSchema = {
  tags,
  operationId: "assignConversation",
  summary: "Take a conversation over (or assign it)",
  description:
    "`bot` or `awaiting_human` → `human`: the bot stops answering and the operator becomes the assignee; the system message " +
    "\"Ana joined the conversation\" is stored and sent live. An admin may pass another operator of the workspace as " +
    "`operator_id`, also to hand over a conversation someone has. Of two operators taking over at the same moment one wins, " +
    "the other gets 409 `conversation_taken`. Assigning a conversation to its assignee again changes nothing.",
  security: consoleSecurity,
  params: conversationIdParamsSchema,
  body: assignConversationBodySchema,
  response: {
    200: jsonResponse("The conversation's state.", conversationStateResponseSchema),
    ...consoleWriteErrors,
    403: errorResponse("`csrf_origin_mismatch`: the request's `Origin` is not FRONTDESK_PUBLIC_URL's; `forbidden`: an agent passed another operator's id."),
    404: errorResponse("`conversation_not_found`: no conversation of the workspace has this id; `operator_not_found`: no operator of the workspace has `operator_id`."),
    409: errorResponse("`conversation_taken`: another operator has the conversation; `conversation_closed`: it is closed."),
  },
};

export const replyToConversationRouteSchema = {
  tags,
  operationId: "replyToConversation",
  summary: "Write to the visitor",
  description:
    "Stores the assignee's message (role `operator`, with its `author`) and sends it live to the visitor and the operators. " +
    "Only the assignee of a conversation taken over may reply.\n\n" +
    "**Idempotency-Key** (optional header, 1–255 printable ASCII characters, e.g. a random UUID per reply; the console sends one with " +
    "every reply and the same one when it sends the reply again): a repeat of the key in the same conversation within 24 hours stores " +
    "nothing, sends nothing and answers 201 with the reply stored the first time (its files' links signed anew), even when the " +
    "conversation was handed back or closed meanwhile. A repeat by another operator, or with another `content` or `attachment_ids`, " +
    "is 422 `idempotency_key_reused`.",
  security: consoleSecurity,
  params: conversationIdParamsSchema,
  headers: messageHeadersSchema,
  body: operatorMessageBodySchema,
  response: {
    201: jsonResponse("The stored message.", operatorMessageResponseSchema),
    ...consoleWriteErrors,
    404: notFound,
    409: errorResponse("`not_assignee`: the operator is not the conversation's assignee (take it over first); `conversation_closed`: it is closed."),
    422: errorResponse("`validation_failed`: the body or the `Idempotency-Key` header is invalid (`fields`); `idempotency_key_reused`: the key was sent before with another reply."),
  },
};

export const releaseConversationRouteSchema = {
  tags,
  operationId: "releaseConversation",
  summary: "Hand the conversation back to the bot",
  description:
    "`human` → `bot`: the bot answers again; the system message \"The assistant is back\" is stored and sent live. " +
    "The assignee or an admin may release it.",
  security: consoleSecurity,
  params: conversationIdParamsSchema,
  response: {
    200: jsonResponse("The conversation's state.", conversationStateResponseSchema),
    ...consoleWriteErrors,
    404: notFound,
    409: errorResponse("`not_assignee`: another operator has the conversation (only they or an admin may release it); `invalid_transition`: no operator has taken it over."),
  },
};

export const closeConversationRouteSchema = {
  tags,
  operationId: "closeConsoleConversation",
  summary: "Close the conversation",
  description:
    "Any open state → `closed`; the system message \"Conversation closed\" is stored and sent live. Any operator of the " +
    "workspace may close; closing a closed conversation changes nothing. The visitor's next message reopens it with the bot.",
  security: consoleSecurity,
  params: conversationIdParamsSchema,
  response: {
    200: jsonResponse("The conversation's state.", conversationStateResponseSchema),
    ...consoleWriteErrors,
    404: notFound,
  },
};

export const operatorTypingRouteSchema = {
  tags,
  operationId: "signalOperatorTyping",
  summary: "Tell the visitor the operator is typing",
  description:
    "Publishes `typing` `{role: \"operator\", typing, name}` on the conversation's channel (nothing is stored). " +
    "Only the assignee types to the visitor. An empty body means `{typing: true}`.",
  security: consoleSecurity,
  params: conversationIdParamsSchema,
  body: operatorTypingBodySchema,
  response: {
    204: noContentResponse("Published."),
    ...consoleWriteErrors,
    404: notFound,
    409: errorResponse("`not_assignee`: the operator is not the assignee of the conversation taken over."),
  },
};
