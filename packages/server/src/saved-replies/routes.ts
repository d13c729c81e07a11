import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { operatorGuard, operatorOf } from "../console/authenticate-operator.js";
import { changeSavedReply, createSavedReply, removeSavedReply } from "./manage-saved-replies.js";
import { renderSavedReply } from "./render-saved-reply.js";
import { listVisibleSavedReplies } from "./saved-reply-repository.js";
import {
  createSavedReplyRouteSchema,
  deleteSavedReplyRouteSchema,
  listSavedRepliesRouteSchema,
  renderSavedReplyRouteSchema,
  updateSavedReplyRouteSchema,
} from "./schemas.js";

/**
 * Saved replies under /api/v1/console/saved-replies. Every operator lists the workspace's and their
 * own, manages their own, and fills any of them for a conversation; admins alone manage the
 * workspace's (checked in the use case: the route serves both scopes, so its schema cannot require
 * the admin role for all of it).
 */
export const savedReplyRoutes: FastifyPluginAsyncZod = async (app) => {
  const services = app.services;
  const guard = operatorGuard(services);

  app.get("/saved-replies", { schema: listSavedRepliesRouteSchema, preValidation: guard }, async (request) => {
    const operator = operatorOf(request);
    return { data: await listVisibleSavedReplies(services.db, { workspaceId: operator.workspaceId, operatorId: operator.id }) };
  });

  app.post("/saved-replies", { schema: createSavedReplyRouteSchema, preValidation: guard }, async (request, reply) =>
    reply.code(201).send({ data: await createSavedReply(services.db, operatorOf(request), request.body) }),
  );

  app.patch("/saved-replies/:id", { schema: updateSavedReplyRouteSchema, preValidation: guard }, async (request) => ({
    data: await changeSavedReply(services.db, operatorOf(request), request.params.id, request.body),
  }));

  app.delete("/saved-replies/:id", { schema: deleteSavedReplyRouteSchema, preValidation: guard }, async (request, reply) => {
    await removeSavedReply(services.db, operatorOf(request), request.params.id);
    return reply.code(204).send(null);
  });

  app.post("/saved-replies/:id/render", { schema: renderSavedReplyRouteSchema, preValidation: guard }, async (request) => ({
    data: await renderSavedReply(services.db, operatorOf(request), request.params.id, request.body.conversation_id),
  }));
};
