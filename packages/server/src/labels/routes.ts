import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { operatorGuard, operatorOf } from "../console/authenticate-operator.js";
import { countLabelledConversations } from "../conversations/conversation-labels.js";
import { AppError } from "../http/app-error.js";
import { deleteLabel, listWorkspaceLabels } from "./label-repository.js";
import { presentLabel } from "./present-label.js";
import { changeLabel, createLabel } from "./save-label.js";
import { createLabelRouteSchema, deleteLabelRouteSchema, listLabelsRouteSchema, updateLabelRouteSchema } from "./schemas.js";

/**
 * The workspace's labels under /api/v1/console/labels: any operator lists them; admins create,
 * rename, recolour and delete them (the role guard refuses an agent before validation). Putting one
 * on a conversation is conversations/' (label-routes.ts).
 */
export const labelRoutes: FastifyPluginAsyncZod = async (app) => {
  const services = app.services;
  const guard = operatorGuard(services);

  app.get("/labels", { schema: listLabelsRouteSchema, preValidation: guard }, async (request) => {
    const { workspaceId } = operatorOf(request);
    const [labels, counts] = await Promise.all([listWorkspaceLabels(services.db, workspaceId), countLabelledConversations(services.db, workspaceId)]);
    return { data: labels.map((label) => presentLabel(label, counts.get(label.id) ?? 0)) };
  });

  app.post("/labels", { schema: createLabelRouteSchema, preValidation: guard }, async (request, reply) => {
    const label = await createLabel(services.db, operatorOf(request).workspaceId, request.body);
    return reply.status(201).send({ data: presentLabel(label, 0) });
  });

  app.patch("/labels/:id", { schema: updateLabelRouteSchema, preValidation: guard }, async (request) => {
    const { workspaceId } = operatorOf(request);
    const label = await changeLabel(services.db, workspaceId, request.params.id, request.body);
    return { data: presentLabel(label, (await countLabelledConversations(services.db, workspaceId)).get(label.id) ?? 0) };
  });

  app.delete("/labels/:id", { schema: deleteLabelRouteSchema, preValidation: guard }, async (request, reply) => {
    if (!(await deleteLabel(services.db, operatorOf(request).workspaceId, request.params.id))) {
      throw new AppError("label_not_found", `No label ${request.params.id} in your workspace.`);
    }
    return reply.code(204).send(null);
  });
};
