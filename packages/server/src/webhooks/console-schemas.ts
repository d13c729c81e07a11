import {
  consoleIdSchema,
  createWebhookBodySchema,
  updateWebhookBodySchema,
  webhookDeliverySchema,
  webhookEndpointSchema,
  webhookEventBodySchema,
  webhookEventTypes,
} from "@frontdesk/contracts";
import { z } from "zod";
import { componentSchemas } from "../openapi/component-schemas.js";
import { errorResponse, errors, jsonResponse, noContentResponse } from "../openapi/route-responses.js";
import { consoleAdminSecurity, consoleErrorResponses, consoleReadErrors, consoleSecurity, consoleWriteErrors } from "../console/console-responses.js";
import { documentMembers } from "../openapi/document-members.js";

documentMembers(webhookEndpointSchema);
documentMembers(webhookDeliverySchema);
documentMembers(webhookEventBodySchema);
componentSchemas.add(webhookEndpointSchema, { id: "WebhookEndpoint", description: "A workspace's webhook endpoint: never its signing secret." });
componentSchemas.add(webhookDeliverySchema, { id: "WebhookDelivery", description: "One attempt to deliver one event to one endpoint (the delivery log)." });
componentSchemas.add(webhookEventBodySchema, {
  id: "WebhookEvent",
  description:
    "The JSON body POSTed to an endpoint. Headers: `Frontdesk-Signature: t=<unix seconds>,v1=<hex>` (HMAC-SHA256 of `${t}.${raw body}` " +
    "under the endpoint's secret), `Frontdesk-Event-Id`, `Frontdesk-Event-Type`.",
});

export const webhookListResponseSchema = z.object({ data: z.array(webhookEndpointSchema) });
export const webhookResponseSchema = z.object({ data: webhookEndpointSchema });
export const createdWebhookResponseSchema = z.object({
  data: webhookEndpointSchema.extend({
    secret: z.string().describe("The signing secret (`whsec_…`): shown this once; Frontdesk keeps it encrypted to sign deliveries and never shows it again."),
  }),
});
export const webhookParamsSchema = z.object({ id: consoleIdSchema });
export const deliveriesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50).describe("Attempts per page (at most 100)."),
  cursor: z.string().max(200).optional().describe("`next_cursor` of the previous page."),
});
export const deliveryListResponseSchema = z.object({
  data: z.array(webhookDeliverySchema),
  next_cursor: z.string().nullable().describe("Pass as `cursor` for older attempts; null on the last page."),
});
export const testWebhookResponseSchema = z.object({
  data: z.object({ delivery_id: z.string(), event_id: z.string() }),
});

const tags = ["console"];
const adminOnly = errorResponse("`forbidden`: only an admin manages webhooks; `csrf_origin_mismatch`: a change without `Origin` equal to FRONTDESK_PUBLIC_URL's origin.");
const notFound = errorResponse("`webhook_not_found`: no endpoint with this id in the operator's workspace.");
const EVENTS = webhookEventTypes.map((type) => `\`${type}\``).join(", ");
const refused =
  "`validation_failed`: a bad member, or a `url` that is not http(s), carries credentials, does not resolve, or resolves to an address the " +
  "guard refuses (loopback, private, link-local, metadata … unless FRONTDESK_WEBHOOK_ALLOW_PRIVATE_NETWORKS or FRONTDESK_WEBHOOK_ALLOWED_NETWORKS allow it).";

export const listWebhooksRouteSchema = {
  tags,
  operationId: "listConsoleWebhooks",
  summary: "List the workspace's webhook endpoints",
  description: "Every webhook endpoint of the workspace, oldest first, with its state (enabled, disabled with the reason, failures). Admins only.",
  security: consoleAdminSecurity,
  response: { 200: jsonResponse("The workspace's endpoints.", webhookListResponseSchema), ...consoleReadErrors, 403: adminOnly },
};

export const createWebhookRouteSchema = {
  tags,
  operationId: "createConsoleWebhook",
  summary: "Create a webhook endpoint",
  description:
    `Subscribes a URL to events (${EVENTS}). The answer holds the signing \`secret\` this once. Deliveries are POSTed by the workers ` +
    "with retries and back-off; an endpoint whose deliveries keep failing is disabled with the reason. At most 20 per workspace. Admins only.",
  security: consoleAdminSecurity,
  body: createWebhookBodySchema,
  response: {
    201: jsonResponse("The endpoint, with its secret (shown once).", createdWebhookResponseSchema),
    ...consoleWriteErrors,
    403: adminOnly,
    422: errorResponse(refused),
  },
};

export const updateWebhookRouteSchema = {
  tags,
  operationId: "updateConsoleWebhook",
  summary: "Change a webhook endpoint",
  description:
    "Changes the URL (checked again), the events, the description, or `enabled`: true re-enables a disabled endpoint and clears its failures " +
    "and reason; false turns it off (its pending attempts are skipped). Admins only.",
  security: consoleAdminSecurity,
  params: webhookParamsSchema,
  body: updateWebhookBodySchema,
  response: { 200: jsonResponse("The endpoint.", webhookResponseSchema), ...consoleWriteErrors, 403: adminOnly, 404: notFound, 422: errorResponse(refused) },
};

export const deleteWebhookRouteSchema = {
  tags,
  operationId: "deleteConsoleWebhook",
  summary: "Delete a webhook endpoint",
  description: "Deletes the endpoint and its delivery log; attempts still queued end without sending. Admins only.",
  security: consoleAdminSecurity,
  params: webhookParamsSchema,
  response: {
    204: noContentResponse("Deleted."),
    401: consoleErrorResponses.unauthenticated,
    403: adminOnly,
    404: notFound,
    422: consoleWriteErrors[422],
    429: errors.rateLimited,
    500: consoleReadErrors[500],
  },
};

export const listDeliveriesRouteSchema = {
  tags,
  operationId: "listConsoleWebhookDeliveries",
  summary: "List an endpoint's delivery attempts",
  description:
    "The delivery log, newest first: each attempt's event, number, status, HTTP status, duration, error and the start of the response " +
    "(1 KB at most); a scheduled retry is `pending` with its time. Kept 30 days. Admins only.",
  security: consoleAdminSecurity,
  params: webhookParamsSchema,
  querystring: deliveriesQuerySchema,
  response: {
    200: jsonResponse("A page of attempts.", deliveryListResponseSchema),
    ...consoleReadErrors,
    403: adminOnly,
    404: notFound,
    422: consoleWriteErrors[422],
  },
};

export const testWebhookRouteSchema = {
  tags,
  operationId: "testConsoleWebhook",
  summary: "Send a test event",
  description:
    "Queues a `webhook.test` event to the endpoint, signed like any other: one attempt, sent even when the endpoint is disabled (to check it " +
    "before enabling it again), never counted against it. Its outcome appears in the delivery log. Admins only; a workspace may send " +
    "10 a minute (`FRONTDESK_RATE_LIMIT_WEBHOOK_TESTS_PER_MINUTE`).",
  security: consoleAdminSecurity,
  params: webhookParamsSchema,
  response: {
    202: jsonResponse("Queued.", testWebhookResponseSchema),
    401: consoleErrorResponses.unauthenticated,
    403: adminOnly,
    404: notFound,
    422: consoleWriteErrors[422],
    429: errors.rateLimited,
    500: consoleReadErrors[500],
  },
};
