import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { enforceRateLimit } from "../../ratelimit/enforce-rate-limit.js";
import { createSource } from "../../sources/create-source.js";
import { registerMultipartFiles } from "../../http/multipart-file.js";
import { readMultipartSource } from "../../sources/read-file-upload.js";
import { deleteSource } from "../../sources/delete-source.js";
import { resyncSource, sourceNotFound } from "../../sources/resync-source.js";
import { setDocumentExcluded } from "../../sources/set-document-excluded.js";
import { listWorkspaceSourceDocuments, showWorkspaceSourceDocument } from "../../sources/source-documents.js";
import { updateSourceSettings } from "../../sources/update-source-settings.js";
import { getConsoleSourceDocumentRouteSchema, listConsoleSourceDocumentsRouteSchema, updateConsoleSourceDocumentRouteSchema } from "./document-schemas.js";
import { agentNotFound } from "../agents/change-console-agent.js";
import { operatorGuard, operatorOf } from "../authenticate-operator.js";
import { listConsoleSources, showConsoleSource, withDetail } from "./console-sources.js";
import {
  createSourceRouteSchema,
  deleteSourceRouteSchema,
  getSourceRouteSchema,
  listSourcesRouteSchema,
  resyncSourceRouteSchema,
  tryQuestionRouteSchema,
  updateSourceRouteSchema,
} from "./knowledge-schemas.js";
import { tryQuestion } from "./try-question.js";
import { AppError } from "../../http/app-error.js";

/** The Knowledge screen: any operator reads and tries questions, admins change sources. Under /api/v1/console/knowledge. */
export const knowledgeRoutes: FastifyPluginAsyncZod = async (app) => {
  const { services } = app;
  const anyOperator = operatorGuard(services);
  // Each change is committed (sources/ owns its transactions): raised on the store, the Knowledge screens read the source again at once.
  const sourceChanged = (sourceId: string) => services.events.raise(services.db, { type: "source.changed", sourceId });
  // Their schemas require the admin role (consoleAdminSecurity): the console's role guard refuses an agent before validation.
  const adminOnly = operatorGuard(services);
  // A file (multipart/form-data) is read, up to the upload limit, only once the operator may write.
  await registerMultipartFiles(app);
  const fileOfAdmin = async (request: FastifyRequest) => readMultipartSource(request, services.config.ingest.uploadMaxBytes);

  app.get("/knowledge/sources", { schema: listSourcesRouteSchema, preValidation: anyOperator }, async (request) => ({
    data: await listConsoleSources(services, operatorOf(request), request.query.agent_id),
  }));

  app.get("/knowledge/sources/:id", { schema: getSourceRouteSchema, preValidation: anyOperator }, async (request) => ({
    data: await showConsoleSource(services, operatorOf(request), request.params.id),
  }));

  app.post("/knowledge/sources", { schema: createSourceRouteSchema, preValidation: [adminOnly, fileOfAdmin] }, async (request, reply) => {
    try {
      const { source, created } = await createSource(services, operatorOf(request).workspaceId, request.body, request.uploadedFile);
      await sourceChanged(source.id);
      return reply.code(created ? 201 : 200).send({ data: await withDetail(services, source) });
    } catch (error) {
      // The Sources API's message speaks of the API token; here it is the operator's workspace.
      if (error instanceof AppError && error.code === "agent_not_found") throw agentNotFound();
      throw error;
    }
  });

  app.post("/knowledge/sources/:id/resync", { schema: resyncSourceRouteSchema, preValidation: adminOnly }, async (request, reply) => {
    const source = await resyncSource(services, operatorOf(request).workspaceId, request.params.id);
    await sourceChanged(source.id);
    return reply.code(202).send({ data: await withDetail(services, source) });
  });

  app.patch("/knowledge/sources/:id", { schema: updateSourceRouteSchema, preValidation: adminOnly }, async (request) => {
    const source = await updateSourceSettings(services, operatorOf(request).workspaceId, request.params.id, request.body);
    await sourceChanged(source.id);
    return { data: await withDetail(services, source) };
  });

  app.get("/knowledge/sources/:id/documents", { schema: listConsoleSourceDocumentsRouteSchema, preValidation: anyOperator }, async (request) =>
    listWorkspaceSourceDocuments(services.db, operatorOf(request).workspaceId, request.params.id, request.query, sourceNotFound),
  );

  app.get("/knowledge/sources/:id/documents/:document_id", { schema: getConsoleSourceDocumentRouteSchema, preValidation: anyOperator }, async (request) => ({
    data: await showWorkspaceSourceDocument(services.db, operatorOf(request).workspaceId, request.params.id, request.params.document_id, sourceNotFound),
  }));

  app.patch("/knowledge/sources/:id/documents/:document_id", { schema: updateConsoleSourceDocumentRouteSchema, preValidation: adminOnly }, async (request) => {
    const { document, source } = await setDocumentExcluded(services, operatorOf(request).workspaceId, request.params.id, request.params.document_id, request.body.excluded);
    await sourceChanged(source.id);
    return { data: document };
  });

  app.delete("/knowledge/sources/:id", { schema: deleteSourceRouteSchema, preValidation: adminOnly }, async (request, reply) => {
    const workspaceId = operatorOf(request).workspaceId;
    const deleted = await deleteSource(services, workspaceId, request.params.id);
    if (!deleted) throw sourceNotFound();
    await services.events.raise(services.db, { type: "source.deleted", workspaceId, agentId: deleted.agentId, sourceId: request.params.id });
    return reply.code(204).send(null);
  });

  app.post("/knowledge/try", { schema: tryQuestionRouteSchema, preValidation: anyOperator }, async (request, reply) => {
    const operator = operatorOf(request);
    await enforceRateLimit(services.limiter, reply, ["sources", `console:${operator.id}`]);
    const aborted = new AbortController();
    request.raw.once("close", () => aborted.abort());
    return { data: await tryQuestion(services, operator, request.body, aborted.signal) };
  });
};
