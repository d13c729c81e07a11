import { visitorProfileResponseSchema, visitorProfileSchema } from "@frontdesk/contracts";
import { componentSchemas } from "../../openapi/component-schemas.js";
import { documentMembers } from "../../openapi/document-members.js";
import { errorResponse, jsonResponse } from "../../openapi/route-responses.js";
import { conversationIdParamsSchema } from "../conversation-read-schemas.js";
import { consoleReadErrors, consoleSecurity } from "../console-responses.js";

documentMembers(visitorProfileSchema);
componentSchemas.add(visitorProfileSchema, {
  id: "ConsoleVisitorProfile",
  description: "A conversation's visitor: browser and device, local time zone and language, this conversation's pages, their conversations, leads and ratings.",
});

export const showVisitorProfileRouteSchema = {
  tags: ["console"],
  operationId: "getConsoleConversationVisitor",
  summary: "Read the visitor's history and profile",
  description:
    "Beside a conversation: its visitor's browser and device (read from the user agent), time zone and language, the pages of this " +
    "conversation, and their conversations, leads and ratings with the agent. Everything is the operator's workspace's. Any role.",
  security: consoleSecurity,
  params: conversationIdParamsSchema,
  response: {
    200: jsonResponse("The visitor's profile.", visitorProfileResponseSchema),
    ...consoleReadErrors,
    404: errorResponse("`conversation_not_found`: no conversation with this id in the operator's workspace (another workspace's included)."),
    422: errorResponse("`validation_failed`: the id is invalid."),
  },
};
