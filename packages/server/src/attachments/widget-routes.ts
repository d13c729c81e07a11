import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { bearerToken } from "../auth/session-token.js";
import { AppError } from "../http/app-error.js";
import { authenticateSession } from "../widget/authenticate-session.js";
import { enforceRateLimit } from "../ratelimit/enforce-rate-limit.js";
import { sessionOf, sessionOnly } from "../widget/route-guards.js";
import { findAttachmentContent } from "./attachment-repository.js";
import { linkContext } from "./attachments.js";
import { presentAttachment } from "./present-attachment.js";
import { registerMultipartFiles } from "../http/multipart-file.js";
import { readAttachmentUpload } from "./read-attachment-upload.js";
import { serveAttachmentRouteSchema, uploadVisitorAttachmentRouteSchema } from "./schemas.js";
import { sendAttachmentFile } from "./send-attachment-file.js";
import { storeAttachment } from "./store-attachment.js";

const notFound = () => new AppError("attachment_not_found", "No attachment with this id that this link or session may open.");

/** The visitor's attachments, mounted under /api/v1/widget: the upload (once the session token passed) and the file. */
export const visitorAttachmentRoutes: FastifyPluginAsyncZod = async (app) => {
  const services = app.services;
  await registerMultipartFiles(app);
  const authenticate = sessionOnly(services);

  app.post("/attachments", {
    schema: uploadVisitorAttachmentRouteSchema,
    // The file is read (up to the limit) only once the session token passed and was counted: against
    // the token's budget, and the conversation's uploads an hour (each is kept in the store).
    preValidation: async (request, reply) => {
      await authenticate(request, reply);
      const session = sessionOf(request);
      await enforceRateLimit(services.limiter, reply, ["session", session.tokenKey], ["attachments", session.conversation.id]);
      await readAttachmentUpload(request, services.config.attachments.maxBytes);
    },
    handler: async (request, reply) => {
      const { conversation } = sessionOf(request);
      const stored = await storeAttachment(services, { workspaceId: conversation.workspaceId, conversationId: conversation.id, uploader: { kind: "visitor" } }, request.uploadedFile);
      return reply.code(201).send({ data: presentAttachment(linkContext(services), stored, "visitor") });
    },
  });

  /**
   * GET /attachments/{id}/{filename}: the file, for the conversation's visitor only. A link's
   * `access` signature (what an `<img>` sends: it cannot send a header) opens its one file until it
   * expires; a session token opens its own conversation's files. Without either, or with a session
   * of another conversation, it is 404, as for an id that does not exist.
   */
  app.get("/attachments/:id/:filename", { schema: serveAttachmentRouteSchema }, async (request, reply) => {
    const { id } = request.params;
    const { access } = request.query;
    if (access !== undefined && services.attachmentLinks.opens(id, access)) {
      const file = await findAttachmentContent(services.db, id);
      if (!file) throw notFound();
      return sendAttachmentFile(reply, file);
    }
    if (bearerToken(request.headers.authorization) === null) throw notFound();
    const session = await authenticateSession(services, request.headers.authorization);
    const file = await findAttachmentContent(services.db, id);
    if (!file || file.conversationId !== session.conversation.id || file.workspaceId !== session.conversation.workspaceId) throw notFound();
    // An operator's upload is the visitor's once it is sent, not before.
    if (file.uploadedBy === "operator" && file.messageId === null) throw notFound();
    return sendAttachmentFile(reply, file);
  });
};
