import { WEBHOOK_TEST_EVENT, type WebhookEventType } from "@frontdesk/contracts";
import type { Database } from "../db/database.js";
import { newId } from "../db/ids.js";
import { AppError } from "../http/app-error.js";
import type { JobQueue } from "../jobs/job-queue.js";
import { insertWebhookEvent, pruneWebhookEvents } from "./webhook-event-repository.js";
import { insertPendingDelivery } from "./webhook-delivery-repository.js";
import {
  countWorkspaceWebhookEndpoints,
  deleteWebhookEndpoint,
  findWebhookEndpoint,
  insertWebhookEndpoint,
  updateWebhookEndpoint,
  type WebhookEndpointChange,
  type WebhookEndpointRecord,
} from "./webhook-endpoint-repository.js";
import { generateWebhookSecret, webhookSecretPrefix, type WebhookSecretBox } from "./webhook-secret-box.js";
import type { WebhookTransport } from "./webhook-transport.js";

/** Endpoints per workspace. */
export const MAX_WEBHOOK_ENDPOINTS = 20;

/** What managing endpoints needs beyond the store: the secrets' seal and the address guard. */
export interface WebhookManagement {
  db: Database;
  secrets: WebhookSecretBox;
  transport: WebhookTransport;
}

const notFound = (endpointId: string) => new AppError("webhook_not_found", `No webhook endpoint ${endpointId} in this workspace.`);

async function assertUrlAllowed(transport: WebhookTransport, url: string): Promise<void> {
  const refusal = await transport.refusal(url);
  if (refusal) throw new AppError("validation_failed", `The webhook URL is refused: ${refusal}.`, { url: [refusal] });
}

/** Creates an endpoint with a new signing secret, returned this once (only its sealed form is stored). */
export async function createWebhookEndpoint(
  management: WebhookManagement,
  input: { workspaceId: string; url: string; events: WebhookEventType[]; description: string },
): Promise<{ endpoint: WebhookEndpointRecord; secret: string }> {
  await assertUrlAllowed(management.transport, input.url);
  const id = newId("whk");
  const secret = generateWebhookSecret();
  const endpoint = await management.db.transaction(async (tx) => {
    if ((await countWorkspaceWebhookEndpoints(tx, input.workspaceId)) >= MAX_WEBHOOK_ENDPOINTS) {
      throw new AppError("validation_failed", `A workspace has at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints.`, { url: [`at most ${MAX_WEBHOOK_ENDPOINTS} endpoints`] });
    }
    return insertWebhookEndpoint(tx, {
      id,
      workspaceId: input.workspaceId,
      url: new URL(input.url).href,
      description: input.description,
      events: [...new Set(input.events)],
      secretCiphertext: management.secrets.seal(secret, id),
      secretPrefix: webhookSecretPrefix(secret),
    });
  });
  return { endpoint, secret };
}

/** Changes an endpoint's URL (checked again), events, description, or enabled state (enabling clears its failures). */
export async function changeWebhookEndpoint(
  management: WebhookManagement,
  input: { workspaceId: string; endpointId: string; change: WebhookEndpointChange },
): Promise<WebhookEndpointRecord> {
  const { change } = input;
  if (change.url !== undefined) await assertUrlAllowed(management.transport, change.url);
  const updated = await updateWebhookEndpoint(management.db, input.workspaceId, input.endpointId, {
    ...change,
    ...(change.url !== undefined ? { url: new URL(change.url).href } : {}),
    ...(change.events !== undefined ? { events: [...new Set(change.events)] } : {}),
  });
  if (!updated) throw notFound(input.endpointId);
  return updated;
}

/** Deletes an endpoint and its delivery log; its queued attempts end without sending. */
export async function removeWebhookEndpoint(db: Database, workspaceId: string, endpointId: string): Promise<WebhookEndpointRecord> {
  const removed = await db.transaction(async (tx) => {
    const endpoint = await deleteWebhookEndpoint(tx, workspaceId, endpointId);
    // Its events' bodies that no other endpoint waits for go with it.
    if (endpoint) await pruneWebhookEvents(tx, workspaceId, new Date());
    return endpoint;
  });
  if (!removed) throw notFound(endpointId);
  return removed;
}

/** Queues a `webhook.test` event to the endpoint (one attempt, even when disabled, never counted against it). */
export async function sendTestWebhook(
  deps: { db: Database; jobs: JobQueue; now: () => Date },
  workspaceId: string,
  endpointId: string,
): Promise<{ deliveryId: string; eventId: string }> {
  const endpoint = await findWebhookEndpoint(deps.db, workspaceId, endpointId);
  if (!endpoint) throw notFound(endpointId);
  const at = deps.now();
  const event = {
    id: newId("evt"),
    type: WEBHOOK_TEST_EVENT,
    created_at: at.toISOString(),
    data: { endpoint_id: endpoint.id, message: "A test event sent from Frontdesk: verify its signature as you would any other." },
  };
  const deliveryId = await deps.db.transaction(async (tx) => {
    const id = await insertPendingDelivery(tx, { endpointId, workspaceId, eventId: event.id, eventType: event.type, attempt: 1, scheduledAt: at });
    if (!id) throw new Error("a new event id collided");
    await insertWebhookEvent(tx, { id: event.id, workspaceId, type: event.type, body: JSON.stringify(event), subject: {} });
    await deps.jobs.send("deliver-webhook", { endpointId, workspaceId, deliveryId: id, attempt: 1, eventId: event.id }, tx);
    return id;
  });
  return { deliveryId, eventId: event.id };
}
