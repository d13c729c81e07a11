import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { operatorGuard, operatorOf } from "../console/authenticate-operator.js";
import { AppError } from "../http/app-error.js";
import { servicesDeletionAnnouncer } from "./announce-deleted-conversations.js";
import { eraseVisitor } from "./erase-visitor.js";
import { exportVisitorData } from "./export-visitor-data.js";
import { findUserVisitor } from "./find-user-visitor.js";
import { eraseUserVisitorRouteSchema, eraseVisitorRouteSchema, exportUserVisitorRouteSchema, exportVisitorRouteSchema } from "./schemas.js";
import { linkContext } from "../attachments/attachments.js";

const visitorNotFound = (id: string) => new AppError("visitor_not_found", `No visitor ${id} in this workspace.`);
const userNotFound = () => new AppError("visitor_not_found", "No visitor with this user id for this agent of your workspace.");

/** A data subject's requests, under /api/v1/console: erase a visitor, export their data. Admins only; the operator's workspace only. */
export const visitorPrivacyRoutes: FastifyPluginAsyncZod = async (app) => {
  const services = app.services;
  // Their schemas require the admin role (consoleAdminSecurity): the console's role guard refuses an agent before validation.
  const admin = operatorGuard(services);
  const announce = servicesDeletionAnnouncer(services);

  app.delete("/visitors/:id", { schema: eraseVisitorRouteSchema, preValidation: admin }, async (request, reply) => {
    const operator = operatorOf(request);
    const erased = await eraseVisitor(
      { db: services.db, announce },
      { workspaceId: operator.workspaceId, visitorId: request.params.id, requestedBy: "operator", operatorId: operator.id },
    );
    if (!erased) throw visitorNotFound(request.params.id);
    return reply.code(204).send(null);
  });

  // By the site's own id for its user (a verified user_id): the same erasure and export, of that user's visitor.
  app.delete("/visitors/by-user", { schema: eraseUserVisitorRouteSchema, preValidation: admin }, async (request, reply) => {
    const operator = operatorOf(request);
    const visitorId = await findUserVisitor(services.db, { workspaceId: operator.workspaceId, agentId: request.query.agent_id, userId: request.query.user_id });
    const erased = visitorId === null ? null : await eraseVisitor(
      { db: services.db, announce },
      { workspaceId: operator.workspaceId, visitorId, requestedBy: "operator", operatorId: operator.id },
    );
    if (!erased) throw userNotFound();
    return reply.code(204).send(null);
  });

  app.get("/visitors/by-user/export", { schema: exportUserVisitorRouteSchema, preValidation: admin }, async (request) => {
    const operator = operatorOf(request);
    const visitorId = await findUserVisitor(services.db, { workspaceId: operator.workspaceId, agentId: request.query.agent_id, userId: request.query.user_id });
    const exported = visitorId === null ? null : await exportVisitorData(services.db, { workspaceId: operator.workspaceId, visitorId, now: services.now(), links: linkContext(services) });
    if (!exported) throw userNotFound();
    return { data: exported };
  });

  app.get("/visitors/:id/export", { schema: exportVisitorRouteSchema, preValidation: admin }, async (request) => {
    const operator = operatorOf(request);
    const exported = await exportVisitorData(services.db, { workspaceId: operator.workspaceId, visitorId: request.params.id, now: services.now(), links: linkContext(services) });
    if (!exported) throw visitorNotFound(request.params.id);
    return { data: exported };
  });
};
