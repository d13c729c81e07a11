import { CONVERSATION_NOTES_MAX } from "@frontdesk/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { operatorGuard, operatorOf } from "../console/authenticate-operator.js";
import { isConversationOfWorkspace } from "../conversations/conversations.js";
import { AppError } from "../http/app-error.js";
import { addNote } from "./add-note.js";
import { listConversationNotes } from "./note-repository.js";
import { addNoteRouteSchema, listNotesRouteSchema } from "./schemas.js";

/** A conversation's internal notes, under /api/v1/console/conversations/{id}/notes: any operator of its workspace. */
export const noteRoutes: FastifyPluginAsyncZod = async (app) => {
  const services = app.services;
  const guard = operatorGuard(services);

  app.post("/conversations/:id/notes", { schema: addNoteRouteSchema, preValidation: guard }, async (request, reply) => {
    const operator = operatorOf(request);
    return reply.code(201).send({ data: await addNote(services, operator, request.params.id, request.body.content) });
  });

  app.get("/conversations/:id/notes", { schema: listNotesRouteSchema, preValidation: guard }, async (request) => {
    const operator = operatorOf(request);
    if (!(await isConversationOfWorkspace(services.db, operator.workspaceId, request.params.id))) {
      throw new AppError("conversation_not_found", "No conversation with this id in your workspace.");
    }
    return { data: await listConversationNotes(services.db, operator.workspaceId, request.params.id, CONVERSATION_NOTES_MAX) };
  });
};
