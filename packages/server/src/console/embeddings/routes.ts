import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { changeWorkspaceEmbeddings, retryWorkspaceReembedding } from "../../ingest/embedding-generations/change-workspace-embeddings.js";
import { workspaceEmbeddingsStatus } from "../../ingest/embedding-generations/workspace-embeddings-status.js";
import { operatorGuard, operatorOf } from "../authenticate-operator.js";
import { changeEmbeddingsRouteSchema, retryEmbeddingsRouteSchema, showEmbeddingsRouteSchema } from "./schemas.js";

/** The workspace's embeddings provider, under /api/v1/console/embeddings: admins only (the guard, before the body is read). */
export const embeddingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const services = app.services;
  const admin = operatorGuard(services);
  const management = { db: services.db, jobs: services.jobs, embedders: services.embedders };
  const status = (workspaceId: string) => workspaceEmbeddingsStatus(services.db, services.embedders, workspaceId);

  app.get("/embeddings", { schema: showEmbeddingsRouteSchema, preValidation: admin }, async (request) => ({ data: await status(operatorOf(request).workspaceId) }));

  app.put("/embeddings", { schema: changeEmbeddingsRouteSchema, preValidation: admin }, async (request, reply) => {
    const { workspaceId } = operatorOf(request);
    const { provider, base_url: baseUrl, model, dimensions, api_key: apiKey } = request.body;
    await changeWorkspaceEmbeddings(management, workspaceId, { provider, baseUrl, model, dimensions, apiKey });
    return reply.code(202).send({ data: await status(workspaceId) });
  });

  app.post("/embeddings/retry", { schema: retryEmbeddingsRouteSchema, preValidation: admin }, async (request, reply) => {
    const { workspaceId } = operatorOf(request);
    await retryWorkspaceReembedding(management, workspaceId);
    return reply.code(202).send({ data: await status(workspaceId) });
  });
};
