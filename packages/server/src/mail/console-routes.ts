import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { operatorGuard, operatorOf } from "../console/authenticate-operator.js";
import { getMailPreferencesRouteSchema, mailOutboxRouteSchema, updateMailPreferencesRouteSchema } from "./console-schemas.js";
import { findEmailAlertChoice, saveEmailAlertChoice } from "./mail-preference-repository.js";
import { showMailOutbox } from "./show-mail-outbox.js";

/** E-mail in the console API: the outbox and delivery log (admins), and each operator's alert choice on their own profile (/me). */
export const mailRoutes: FastifyPluginAsyncZod = async (app) => {
  const services = app.services;
  const guard = operatorGuard(services);

  app.get("/mail", { schema: mailOutboxRouteSchema, preValidation: guard }, async (request) => ({
    data: await showMailOutbox(services, operatorOf(request).workspaceId, request.query),
  }));

  app.get("/me/preferences", { schema: getMailPreferencesRouteSchema, preValidation: guard }, async (request) => ({
    data: { email_alerts: await findEmailAlertChoice(services.db, operatorOf(request).id) },
  }));

  app.patch("/me/preferences", { schema: updateMailPreferencesRouteSchema, preValidation: guard }, async (request) => {
    await saveEmailAlertChoice(services.db, operatorOf(request).id, request.body.email_alerts);
    return { data: { email_alerts: request.body.email_alerts } };
  });
};
