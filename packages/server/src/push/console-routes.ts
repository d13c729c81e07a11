import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { operatorGuard, operatorOf } from "../console/authenticate-operator.js";
import {
  listPushDevicesRouteSchema,
  subscribePushDeviceRouteSchema,
  unsubscribePushDeviceRouteSchema,
  vapidKeyRouteSchema,
} from "./console-schemas.js";
import { subscribeDevice, unsubscribeDevice } from "./manage-push-subscriptions.js";
import { listOperatorPushDevices } from "./push-subscription-repository.js";
import { createPushServices } from "./push-services.js";

/** The signed-in operator's devices with Web Push alerts, under /api/v1/console/push: every operator manages their own. */
export const pushRoutes: FastifyPluginAsyncZod = async (app) => {
  const services = app.services;
  const guard = operatorGuard(services);
  // The VAPID keys are resolved (generated on a first start) here, when the app is built: a bad kept key stops the start.
  const push = await createPushServices(services.config);
  app.addHook("onClose", async () => push.close());

  app.get("/push/key", { schema: vapidKeyRouteSchema, preValidation: guard }, async () => ({ data: { public_key: push.vapid.publicKey } }));

  app.get("/push/devices", { schema: listPushDevicesRouteSchema, preValidation: guard }, async (request) => ({
    data: await listOperatorPushDevices(services.db, operatorOf(request).id),
  }));

  app.post("/push/devices", { schema: subscribePushDeviceRouteSchema, preValidation: guard }, async (request, reply) => {
    const { device, created } = await subscribeDevice({ db: services.db, push }, operatorOf(request), request.body);
    return reply.status(created ? 201 : 200).send({ data: device });
  });

  app.delete("/push/devices/:id", { schema: unsubscribePushDeviceRouteSchema, preValidation: guard }, async (request, reply) => {
    await unsubscribeDevice(services.db, operatorOf(request), request.params.id);
    return reply.code(204).send(null);
  });
};
