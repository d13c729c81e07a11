import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { operatorGuard, operatorOf } from "./authenticate-operator.js";
import { listNotifications } from "./list-notifications.js";
import { markNotificationsRead } from "./mark-notifications-read.js";
import { listNotificationsRouteSchema, markNotificationsReadRouteSchema } from "./notification-schemas.js";

/** The signed-in operator's inbox, under /api/v1/console/notifications. */
export const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  const services = app.services;
  const guard = operatorGuard(services);

  app.get("/notifications", { schema: listNotificationsRouteSchema, preValidation: guard }, async (request) =>
    listNotifications(services, operatorOf(request), request.query),
  );

  app.post("/notifications/read", { schema: markNotificationsReadRouteSchema, preValidation: guard }, async (request) => ({
    data: await markNotificationsRead(services, operatorOf(request), request.body),
  }));
};
