import { answerFeedbackBodySchema, answerFeedbackParamsSchema, answerFeedbackResponseSchema, visitorConversationResponseSchema, visitorMessagesQuerySchema, visitorMessagesResponseSchema } from "@frontdesk/contracts";
import { z } from "zod";
import { errorResponse, errors, jsonResponse, noContentResponse, sessionErrors, sessionSecurity } from "../openapi/route-responses.js";

const tags = ["widget"];

/** The errors of a session route without a body (GET). */
const sessionReadErrors = {
  401: sessionErrors[401],
  404: sessionErrors[404],
  422: errors.validationFailed,
  429: errors.rateLimited,
  500: errors.internal,
} as const;

export const visitorConversationRouteSchema = {
  tags,
  operationId: "getConversation",
  summary: "The conversation's state",
  description:
    "The session's conversation: its `status` (`bot`: the bot answers; `awaiting_human`: a person was asked for; `human`: " +
    "an operator has it, named in `assignee`; `closed`), when a person was asked for, and whether any operator is online now. " +
    "Changes arrive live as `conversation.updated` on the conversation's channel. Shares the session token's budget.",
  security: sessionSecurity,
  response: {
    200: jsonResponse("The conversation's state.", visitorConversationResponseSchema),
    ...sessionReadErrors,
  },
};

export const visitorMessagesRouteSchema = {
  tags,
  operationId: "listConversationMessages",
  summary: "The messages since a seq",
  description:
    "What the visitor missed (after a reconnect): the messages whose `seq` is above `after_seq`, in order, in init's shape, " +
    "system messages (\"Ana joined the conversation\", \"The assistant is back\", \"Conversation closed\") included. " +
    "Shares the session token's budget.",
  security: sessionSecurity,
  querystring: visitorMessagesQuerySchema,
  response: {
    200: jsonResponse("The messages, oldest first.", visitorMessagesResponseSchema),
    ...sessionReadErrors,
  },
};

export const closeVisitorConversationRouteSchema = {
  tags,
  operationId: "closeConversation",
  summary: "End the conversation",
  description:
    "The visitor ends the conversation: it becomes `closed` and a system message \"Conversation closed\" is stored and sent " +
    "live. Closing a closed conversation changes nothing. The visitor's next message reopens it with the bot. " +
    "Shares the session token's budget.",
  security: sessionSecurity,
  response: {
    200: jsonResponse("The conversation's state after closing.", visitorConversationResponseSchema),
    ...sessionReadErrors,
  },
};

export const visitorSeenBodySchema = z.object({
  seq: z.number().int().min(1).max(2_147_483_647).describe("The highest `seq` of the messages the widget showed."),
});

export const markVisitorSeenRouteSchema = {
  tags,
  operationId: "markConversationSeen",
  summary: "Acknowledge the messages shown",
  description:
    "The widget showed the visitor the messages up to `seq` (an operator's reply that arrived live). A reply the visitor has not seen " +
    "(neither acknowledged here nor fetched through GET /conversation/messages) within FRONTDESK_EMAIL_UNSEEN_DELAY_SECONDS is e-mailed " +
    "to the address they left, if any. Never moves back. Shares the session token's budget.",
  security: sessionSecurity,
  body: visitorSeenBodySchema,
  response: {
    204: noContentResponse("Recorded."),
    ...sessionErrors,
  },
};

export const answerFeedbackRouteSchema = {
  tags,
  operationId: "rateAnswer",
  summary: "Rate a bot answer",
  description:
    "The visitor's 👍 (`up`) or 👎 (`down`) on one bot answer of the session's conversation, with an optional comment. " +
    "A repeat replaces the rating (and its comment). Raises the `message.rated` webhook. Only the bot's messages of the " +
    "token's own conversation can be rated: any other id is 404 `message_not_found`. Limited per IP, with the satisfaction rating's budget.",
  security: sessionSecurity,
  params: answerFeedbackParamsSchema,
  body: answerFeedbackBodySchema,
  response: {
    200: jsonResponse("The stored rating.", answerFeedbackResponseSchema),
    ...sessionErrors,
    404: errorResponse(
      "`message_not_found`: the conversation has no bot message of this id (a visitor's or an operator's message, another " +
        "conversation's, or an unknown id); `agent_not_found`: the session's agent has been unpublished since init.",
    ),
  },
};
