import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { operatorGuard, operatorOf } from "../console/authenticate-operator.js";
import { AppError } from "../http/app-error.js";
import { enforceRateLimit } from "../ratelimit/enforce-rate-limit.js";
import {
  createWebhookRouteSchema,
  deleteWebhookRouteSchema,
  listDeliveriesRouteSchema,
  listWebhooksRouteSchema,
  testWebhookRouteSchema,
  updateWebhookRouteSchema,
} from "./console-schemas.js";
import { changeWebhookEndpoint, createWebhookEndpoint, removeWebhookEndpoint, sendTestWebhook } from "./manage-webhook-endpoints.js";
import { listEndpointDeliveries } from "./webhook-delivery-repository.js";
import { findWebhookEndpoint, listWorkspaceWebhookEndpoints, presentWebhookEndpoint } from "./webhook-endpoint-repository.js";
import { createWebhookServices } from "./webhook-services.js";

const encodeCursor = (at: string, id: string) => Buffer.from(JSON.stringify([at, id])).toString("base64url");

function decodeCursor(cursor: string): { scheduledAt: string; id: string } {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(parsed) && parsed.length === 2 && typeof parsed[0] === "string" && typeof parsed[1] === "string" && !Number.isNaN(Date.parse(parsed[0]))) {
      return { scheduledAt: parsed[0], id: parsed[1] };
    }
  } catch {
    // Falls through to the refusal.
  }
  throw new AppError("validation_failed", "The cursor is not one this route gave.", { cursor: ["not a cursor of this list"] });
}

/** Webhook endpoints of the operator's workspace, under /api/v1/console/webhooks: admins only (the guard, before the body is read). */
export const webhookRoutes: FastifyPluginAsyncZod = async (app) => {
  const services = app.services;
  // Their schemas require the admin role (consoleAdminSecurity): the console's role guard refuses an agent before validation.
  const admin = operatorGuard(services);
  const webhooks = await createWebhookServices(services.config);
  app.addHook("onClose", async () => webhooks.close());
  const management = { db: services.db, secrets: webhooks.secrets, transport: webhooks.transport };

  app.get("/webhooks", { schema: listWebhooksRouteSchema, preValidation: admin }, async (request) => {
    const operator = operatorOf(request);
    return { data: (await listWorkspaceWebhookEndpoints(services.db, operator.workspaceId)).map(presentWebhookEndpoint) };
  });

  app.post("/webhooks", { schema: createWebhookRouteSchema, preValidation: admin }, async (request, reply) => {
    const operator = operatorOf(request);
    const { endpoint, secret } = await createWebhookEndpoint(management, { workspaceId: operator.workspaceId, ...request.body });
    return reply.status(201).send({ data: { ...presentWebhookEndpoint(endpoint), secret } });
  });

  app.patch("/webhooks/:id", { schema: updateWebhookRouteSchema, preValidation: admin }, async (request) => {
    const operator = operatorOf(request);
    const { url, events, description, enabled } = request.body;
    const change = {
      ...(url !== undefined ? { url } : {}),
      ...(events !== undefined ? { events } : {}),
      ...(description !== undefined ? { description } : {}),
      ...(enabled !== undefined ? { enabled } : {}),
    };
    return { data: presentWebhookEndpoint(await changeWebhookEndpoint(management, { workspaceId: operator.workspaceId, endpointId: request.params.id, change })) };
  });

  app.delete("/webhooks/:id", { schema: deleteWebhookRouteSchema, preValidation: admin }, async (request, reply) => {
    const operator = operatorOf(request);
    await removeWebhookEndpoint(services.db, operator.workspaceId, request.params.id);
    return reply.code(204).send(null);
  });

  app.get("/webhooks/:id/deliveries", { schema: listDeliveriesRouteSchema, preValidation: admin }, async (request) => {
    const operator = operatorOf(request);
    if (!(await findWebhookEndpoint(services.db, operator.workspaceId, request.params.id))) {
      throw new AppError("webhook_not_found", `No webhook endpoint ${request.params.id} in this workspace.`);
    }
    const { limit, cursor } = request.query;
    const page = await listEndpointDeliveries(services.db, operator.workspaceId, request.params.id, { limit: limit + 1, before: cursor ? decodeCursor(cursor) : null });
    const data = page.slice(0, limit);
    const last = data.at(-1);
    return { data, next_cursor: page.length > limit && last ? encodeCursor(last.scheduled_at, last.id) : null };
  });

  app.post("/webhooks/:id/test", { schema: testWebhookRouteSchema, preValidation: admin }, async (request, reply) => {
    const operator = operatorOf(request);
    // A test is a real request to a receiver that may hang: a workspace gets a few a minute.
    await enforceRateLimit(services.limiter, reply, ["webhookTests", operator.workspaceId]);
    const sent = await sendTestWebhook({ db: services.db, jobs: services.jobs, now: services.now }, operator.workspaceId, request.params.id);
    return reply.code(202).send({ data: { delivery_id: sent.deliveryId, event_id: sent.eventId } });
  });
};
