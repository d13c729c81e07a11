import { z } from "zod";
import { isoTimestampSchema } from "./common.js";

/**
 * Outbound webhooks: the events a workspace can subscribe an endpoint to, and the body every
 * delivery carries. A receiver verifies `Frontdesk-Signature: t=<unix seconds>,v1=<hex>`, the
 * HMAC-SHA256 of `${t}.${raw body}` under the endpoint's secret (docs/api.md: "Webhooks").
 */
export const webhookEventTypes = [
  "lead.created",
  "lead.updated",
  "human.requested",
  "conversation.closed",
  "conversation.labelled",
  "satisfaction.rated",
  "message.rated",
  "source.indexed",
  "source.failed",
  "answer_tests.regressed",
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

/** Sent by "send test event" to one endpoint, whatever it subscribes to. */
export const WEBHOOK_TEST_EVENT = "webhook.test";

export const webhookEventTypeSchema = z.enum(webhookEventTypes);

/** The JSON body of a delivery: the same `id` and `created_at` on every attempt (receivers de-duplicate by `id`). */
export const webhookEventBodySchema = z.object({
  id: z.string().describe("The event's id (`evt_…`), the same on every attempt: de-duplicate by it."),
  type: z.string().describe("One of the subscribable event types, or `webhook.test`."),
  created_at: isoTimestampSchema.describe("When the event happened."),
  data: z.record(z.string(), z.unknown()).describe("The event's data; its members depend on `type` (docs/api.md: Webhooks)."),
});
export type WebhookEventBody = z.infer<typeof webhookEventBodySchema>;

/** A webhook endpoint as the console and the CLI show it: never its secret. */
export const webhookEndpointSchema = z.object({
  id: z.string().describe("The endpoint's id (`whk_…`)."),
  workspace_id: z.string(),
  url: z.string().describe("Where events are POSTed (http or https; private and loopback addresses are refused unless the deployment allows them)."),
  description: z.string(),
  events: z.array(webhookEventTypeSchema).describe("The event types delivered to it."),
  enabled: z.boolean().describe("False when an admin turned it off or it was disabled after repeated failures (`disabled_reason`)."),
  disabled_reason: z.string().nullable().describe("Why it was disabled automatically (null when enabled, or turned off by hand)."),
  disabled_at: isoTimestampSchema.nullable(),
  secret_prefix: z.string().describe("The signing secret's first characters (`whsec_` and 4 more), to recognise it."),
  consecutive_failures: z.number().int().describe("Deliveries that failed every attempt since the last success."),
  failing_since: isoTimestampSchema.nullable().describe("The first failed attempt since the last success."),
  last_success_at: isoTimestampSchema.nullable(),
  circuit_open_until: isoTimestampSchema
    .nullable()
    .describe(
      "While in the future, the endpoint's circuit breaker is open: after FRONTDESK_WEBHOOK_CIRCUIT_FAILURES failed attempts in a row, attempts wait for the cool-down, then one goes through as a trial; a success closes it.",
    ),
  created_at: isoTimestampSchema,
  updated_at: isoTimestampSchema,
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

/** One attempt to deliver one event to one endpoint. */
export const webhookDeliverySchema = z.object({
  id: z.string().describe("The attempt's id (`whd_…`)."),
  endpoint_id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  attempt: z.number().int().describe("1 for the first attempt, then each retry."),
  status: z.enum(["pending", "sending", "succeeded", "failed", "skipped"]).describe(
    "`pending`: scheduled (`scheduled_at`; moved later while the workspace's deliveries are all under way or the endpoint's circuit is open); `sending`: under way; `succeeded`: a 2xx; `failed`: anything else; `skipped`: not sent (the endpoint was disabled, or the visitor the event was about was erased).",
  ),
  status_code: z.number().int().nullable().describe("The receiver's HTTP status (null when no response came)."),
  duration_ms: z.number().int().nullable(),
  error: z.string().nullable().describe("Why the attempt failed (timeout, refused address, redirect, status …)."),
  response_body: z.string().nullable().describe("The start of the receiver's response body (at most 1 KB); cleared when the visitor the event was about is erased."),
  scheduled_at: isoTimestampSchema.describe("When the attempt is (or was) due."),
  completed_at: isoTimestampSchema.nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const createWebhookBodySchema = z.object({
  url: z.string().trim().min(1).max(2000).describe("An http or https URL, without credentials."),
  events: z.array(webhookEventTypeSchema).min(1).max(webhookEventTypes.length * 2).describe("The event types to deliver (at least one)."),
  description: z.string().trim().max(200).default("").describe("What the endpoint is for."),
});
export type CreateWebhookBody = z.input<typeof createWebhookBodySchema>;

export const updateWebhookBodySchema = z
  .object({
    url: z.string().trim().min(1).max(2000).optional(),
    events: z.array(webhookEventTypeSchema).min(1).max(webhookEventTypes.length * 2).optional(),
    description: z.string().trim().max(200).optional(),
    enabled: z.boolean().optional().describe("true re-enables a disabled endpoint (its failure count starts again); false turns it off."),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), { message: "give at least one member to change" });
export type UpdateWebhookBody = z.input<typeof updateWebhookBodySchema>;
