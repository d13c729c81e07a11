import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { presentOperator } from "../../admin/present.js";
import { AppError } from "../../http/app-error.js";
import { findOperator, findWorkspaceOperator, listWorkspaceOperators, setOperatorAway } from "../../tenants/operators.js";
import { authenticateOperator, operatorGuard, operatorOf } from "../authenticate-operator.js";
import { expiredSessionCookieOptions, SESSION_COOKIE_NAME } from "../session-cookie.js";
import { inviteOperator, reissuePasswordLink } from "./invite-operator.js";
import { changeOperatorRole, removeOperator, signOutEverywhere } from "./manage-operator.js";
import {
  changeRoleRouteSchema,
  getAvailabilityRouteSchema,
  inviteOperatorRouteSchema,
  listOperatorsRouteSchema,
  passwordLinkRouteSchema,
  removeOperatorRouteSchema,
  setAvailabilityRouteSchema,
  signOutEverywhereRouteSchema,
} from "./schemas.js";

/**
 * The operators page, under /api/v1/console/operators: anyone lists; admins invite, change roles and
 * remove. And each operator's own availability (/me/availability): away, or available.
 */
export const operatorRoutes: FastifyPluginAsyncZod = async (app) => {
  const services = app.services;
  // Inviting, a new link, a role and a removal: their schemas require the admin role (consoleAdminSecurity),
  // which the console's role guard checks before validation.
  const guard = operatorGuard(services);

  app.get("/operators", { schema: listOperatorsRouteSchema, preValidation: guard }, async (request) => ({
    data: (await listWorkspaceOperators(services.db, operatorOf(request).workspaceId)).map(presentOperator),
  }));

  app.post("/operators", { schema: inviteOperatorRouteSchema, preValidation: guard }, async (request, reply) =>
    reply.status(201).send({ data: await inviteOperator(services, operatorOf(request), request.body) }),
  );

  app.post("/operators/:id/password-link", { schema: passwordLinkRouteSchema, preValidation: guard }, async (request) => {
    const admin = operatorOf(request);
    if (!(await findWorkspaceOperator(services.db, admin.workspaceId, request.params.id))) {
      throw new AppError("operator_not_found", `No operator ${request.params.id} in this workspace.`);
    }
    return { data: await reissuePasswordLink(services, request.params.id) };
  });

  app.patch("/operators/:id", { schema: changeRoleRouteSchema, preValidation: guard }, async (request) => ({
    data: await changeOperatorRole(services, operatorOf(request), request.params.id, request.body.role),
  }));

  app.delete("/operators/:id", { schema: removeOperatorRouteSchema, preValidation: guard }, async (request, reply) => {
    const admin = operatorOf(request);
    const removed = await removeOperator(services, admin, request.params.id);
    if (removed.id === admin.id) reply.clearCookie(SESSION_COOKIE_NAME, expiredSessionCookieOptions(services.config));
    return { data: removed };
  });

  // Anyone signs themselves out everywhere; another operator, only an admin: checked before the id is validated too.
  const selfOrAdmin = async (request: FastifyRequest<{ Params: { id: string } }>) => {
    const actor = await authenticateOperator(services, request);
    if (actor.role !== "admin" && request.params.id !== actor.id) throw new AppError("forbidden", "Only an admin may sign out another operator.");
  };

  app.delete("/operators/:id/sessions", { schema: signOutEverywhereRouteSchema, preValidation: selfOrAdmin }, async (request, reply) => {
    const actor = operatorOf(request);
    const ended = await signOutEverywhere(services, actor, request.params.id);
    if (ended.operator_id === actor.id) reply.clearCookie(SESSION_COOKIE_NAME, expiredSessionCookieOptions(services.config));
    return { data: ended };
  });

  app.get("/me/availability", { schema: getAvailabilityRouteSchema, preValidation: guard }, async (request) => {
    const operator = await findOperator(services.db, operatorOf(request).id);
    if (!operator) throw new AppError("operator_not_found", "This operator no longer exists.");
    return { data: { away: operator.away } };
  });

  app.put("/me/availability", { schema: setAvailabilityRouteSchema, preValidation: guard }, async (request) => {
    const away = await setOperatorAway(services.db, operatorOf(request).id, request.body.away, services.now());
    if (away === null) throw new AppError("operator_not_found", "This operator no longer exists.");
    return { data: { away } };
  });
};
