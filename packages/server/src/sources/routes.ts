import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { authenticateApiToken } from "../tenants/authenticate-api-token.js";
import { AppError } from "../http/app-error.js";
import { enforceRateLimit } from "../ratelimit/enforce-rate-limit.js";
import type { ApiToken } from "../tenants/api-tokens.js";
import { createSource } from "./create-source.js";
import { replaceSourceFile } from "./create-file-source.js";
import { registerMultipartFiles } from "../http/multipart-file.js";
import { readMultipartSource } from "./read-file-upload.js";
import { createSourceRouteSchema, deleteSourceRouteSchema, getSourceRouteSchema, listSourcesRouteSchema, replaceSourceFileRouteSchema } from "./schemas.js";
import { deleteSource } from "./delete-source.js";
import { getSourceDocumentRouteSchema, listSourceDocumentsRouteSchema, updateSourceDocumentRouteSchema } from "./document-schemas.js";
import { setDocumentExcluded } from "./set-document-excluded.js";
import { listWorkspaceSourceDocuments, showWorkspaceSourceDocument } from "./source-documents.js";
import {
  findWorkspaceSource,
  listWorkspaceSources,
  presentSource,
} from "./source-repository.js";

declare module "fastify" {
  interface FastifyRequest {
    apiToken?: ApiToken;
  }
}

export const SOURCES_LIST_LIMIT = 100;

/** The Sources ingest API (spec section 4), mounted under /api/v1/workspace/sources. */
export const sourcesRoutes: FastifyPluginAsyncZod = async (app) => {
    const services = app.services;
    await registerMultipartFiles(app);

    app.addHook("preValidation", async (request: FastifyRequest, reply: FastifyReply) => {
      const ability = request.method === "GET" || request.method === "HEAD" ? "sources:read" : "sources:write";
      const token = await authenticateApiToken(services.db, request.headers.authorization, ability);
      request.apiToken = token;
      await enforceRateLimit(services.limiter, reply, ["sources", token.id]);
      // A file is read (up to the upload limit) only once the token may write.
      await readMultipartSource(request, services.config.ingest.uploadMaxBytes);
    });
    const tokenOf = (request: FastifyRequest): ApiToken => {
      if (!request.apiToken) throw new Error("API token guard did not run");
      return request.apiToken;
    };
    const notFound = () => new AppError("source_not_found", "No source with this id in the token's workspace.");

    app.get("/", { schema: listSourcesRouteSchema }, async (request) => {
      const sources = await listWorkspaceSources(services.db, tokenOf(request).workspaceId, SOURCES_LIST_LIMIT);
      return { data: sources.map(presentSource) };
    });

    app.get("/:id", { schema: getSourceRouteSchema }, async (request) => {
      const source = await findWorkspaceSource(services.db, tokenOf(request).workspaceId, request.params.id);
      if (!source) throw notFound();
      return { data: presentSource(source) };
    });

    app.get("/:id/documents", { schema: listSourceDocumentsRouteSchema }, async (request) =>
      listWorkspaceSourceDocuments(services.db, tokenOf(request).workspaceId, request.params.id, request.query, notFound),
    );

    app.get("/:id/documents/:document_id", { schema: getSourceDocumentRouteSchema }, async (request) => ({
      data: await showWorkspaceSourceDocument(services.db, tokenOf(request).workspaceId, request.params.id, request.params.document_id, notFound),
    }));

    app.patch("/:id/documents/:document_id", { schema: updateSourceDocumentRouteSchema }, async (request) => {
      const { document, source } = await setDocumentExcluded(services, tokenOf(request).workspaceId, request.params.id, request.params.document_id, request.body.excluded);
      // Committed: the console's Knowledge screens read the source again.
      await services.events.raise(services.db, { type: "source.changed", sourceId: source.id });
      return { data: document };
    });

    app.post(
      "/",
      { schema: createSourceRouteSchema },
      async (request, reply) => {
        const { source, created } = await createSource(services, tokenOf(request).workspaceId, request.body, request.uploadedFile);
        return reply.code(created ? 201 : 200).send({ data: presentSource(source) });
      },
    );

    app.put(
      "/:id/file",
      { schema: replaceSourceFileRouteSchema },
      async (request, reply) => {
        const { source, changed } = await replaceSourceFile(services, tokenOf(request).workspaceId, request.params.id, request.uploadedFile);
        return reply.code(changed ? 202 : 200).send({ data: presentSource(source) });
      },
    );

    app.delete(
      "/:id",
      { schema: deleteSourceRouteSchema },
      async (request, reply) => {
        if (!(await deleteSource(services, tokenOf(request).workspaceId, request.params.id))) throw notFound();
        return reply.code(204).send(null);
      },
    );
};
