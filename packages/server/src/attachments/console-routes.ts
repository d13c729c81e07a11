import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { operatorGuard, operatorOf } from "../console/authenticate-operator.js";
import { isConversationOfWorkspace } from "../conversations/conversations.js";
import { AppError } from "../http/app-error.js";
import { findAttachmentContent } from "./attachment-repository.js";
import { linkContext } from "./attachments.js";
import { presentAttachment } from "./present-attachment.js";
import { registerMultipartFiles } from "../http/multipart-file.js";
import { readAttachmentUpload } from "./read-attachment-upload.js";
import { serveConsoleAttachmentRouteSchema, uploadOperatorAttachmentRouteSchema } from "./schemas.js";
import { sendAttachmentFile } from "./send-attachment-file.js";
import { storeAttachment } from "./store-attachment.js";

/** The console's attachment routes, registered in the console plugin (/api/v1/console). */
export const consoleAttachmentRoutes: FastifyPluginAsyncZod = async (app) => {
  const services = app.services;
  await registerMultipartFiles(app);
  const guard = operatorGuard(services);

  app.post("/conversations/:id/attachments", {
    schema: uploadOperatorAttachmentRouteSchema,
    preValidation: async (request) => {
      await guard(request);
      await readAttachmentUpload(request, services.config.attachments.maxBytes);
    },
    handler: async (request, reply) => {
      const operator = operatorOf(request);
      const conversationId = request.params.id;
      if (!(await isConversationOfWorkspace(services.db, operator.workspaceId, conversationId))) {
        throw new AppError("conversation_not_found", "No conversation of this workspace has this id.");
      }
      const uploader = { kind: "operator" as const, operatorId: operator.id };
      const stored = await storeAttachment(services, { workspaceId: operator.workspaceId, conversationId, uploader }, request.uploadedFile);
      return reply.code(201).send({ data: presentAttachment(linkContext(services), stored, "console") });
    },
  });

  app.get("/attachments/:id/:filename", {
    schema: serveConsoleAttachmentRouteSchema,
    preValidation: guard,
    handler: async (request, reply) => {
      const file = await findAttachmentContent(services.db, request.params.id);
      // Another workspace's file is not found, as one that does not exist.
      if (!file || file.workspaceId !== operatorOf(request).workspaceId) {
        throw new AppError("attachment_not_found", "No attachment of this workspace has this id.");
      }
      return sendAttachmentFile(reply, file);
    },
  });
};
