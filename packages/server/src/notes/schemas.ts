import { conversationIdParamsSchema, conversationNoteListResponseSchema, conversationNoteResponseSchema, conversationNoteSchema, createNoteBodySchema, CONVERSATION_NOTES_MAX } from "@frontdesk/contracts";
import { consoleReadErrors, consoleSecurity, consoleWriteErrors } from "../console/console-responses.js";
import { componentSchemas } from "../openapi/component-schemas.js";
import { documentMembers } from "../openapi/document-members.js";
import { errorResponse, jsonResponse } from "../openapi/route-responses.js";

documentMembers(conversationNoteSchema);
componentSchemas.add(conversationNoteSchema, {
  id: "ConversationNote",
  description: "An operator's internal note in a conversation: for operators only, never shown or sent to the visitor, nor to the model.",
});

const tags = ["console"];
const notFound = errorResponse("`conversation_not_found`: no conversation of the operator's workspace has this id (another workspace's ids included).");

export const addNoteRouteSchema = {
  tags,
  operationId: "addConversationNote",
  summary: "Write an internal note in a conversation",
  description:
    "Stores an operator's note, placed after the conversation's latest message (`after_seq`). Any operator of the workspace, in any " +
    "state of the conversation. A note is for operators only: it never reaches the visitor (widget API, their channel, e-mails, " +
    "transcripts, their data export) nor the model's prompt. `@Name` mentions an operator of the workspace (full name, or a first " +
    "name no other operator has): each is notified in their inbox (kind `note.mentioned`), and by e-mail and on their devices where " +
    "set up. The workspace's channel (operators only) announces `note.created`.",
  security: consoleSecurity,
  params: conversationIdParamsSchema,
  body: createNoteBodySchema,
  response: { 201: jsonResponse("The stored note.", conversationNoteResponseSchema), ...consoleWriteErrors, 404: notFound },
};

export const listNotesRouteSchema = {
  tags,
  operationId: "listConversationNotes",
  summary: "List a conversation's internal notes",
  description: `The conversation's notes, the latest ${CONVERSATION_NOTES_MAX}, oldest first (the conversation's detail carries the same list). Any operator of the workspace.`,
  security: consoleSecurity,
  params: conversationIdParamsSchema,
  response: {
    200: jsonResponse("The notes.", conversationNoteListResponseSchema),
    ...consoleReadErrors,
    404: notFound,
    422: errorResponse("`validation_failed`: the id is invalid."),
  },
};
