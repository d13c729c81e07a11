import { WEBHOOK_TEST_EVENT } from "@frontdesk/contracts";
import type { WebhookConfig } from "../config/webhooks.js";
import type { Database } from "../db/database.js";
import type { JobPayload, JobName } from "../jobs/job-catalog.js";
import type { JobQueue } from "../jobs/job-queue.js";
import { completeDelivery, insertPendingDelivery, pruneEndpointDeliveries, type AttemptResult } from "./webhook-delivery-repository.js";
import { findWebhookEndpoint, recordEndpointFailingSince, recordEndpointFailure, recordEndpointSuccess } from "./webhook-endpoint-repository.js";
import type { WebhookSecretBox } from "./webhook-secret-box.js";
import { WEBHOOK_SIGNATURE_HEADER, signWebhook } from "./webhook-signature.js";
import type { WebhookTransport } from "./webhook-transport.js";

/** How long the delivery log keeps an endpoint's attempts. */
export const DELIVERY_LOG_DAYS = 30;

export interface WebhookDeliveryContext {
  db: Database;
  jobs: JobQueue;
  transport: WebhookTransport;
  secrets: WebhookSecretBox;
  settings: WebhookConfig;
  now: () => Date;
}

type DeliveryPayload = JobPayload<Extract<JobName, "deliver-webhook">>;

/** The wait before attempt `attempt + 1`: the base, doubled after each attempt (2, 4, 8, 16, 32 min by default). */
export function retryDelayMs(settings: WebhookConfig, attempt: number): number {
  return settings.retryBaseMs * 2 ** (attempt - 1);
}

/**
 * One attempt (the `deliver-webhook` job): sign the event's body with the endpoint's secret at this
 * attempt's time, POST it (timeout, address guard, no redirects), then in one transaction record the
 * attempt and either mark the endpoint healthy, schedule the next attempt (its row and its job), or,
 * after the last one, count the failed delivery and disable the endpoint past the thresholds.
 * A deleted endpoint's job ends quietly; a disabled one's attempt is recorded as `skipped`.
 */
export async function deliverWebhook(context: WebhookDeliveryContext, payload: DeliveryPayload): Promise<void> {
  const { db, settings } = context;
  const endpoint = await findWebhookEndpoint(db, payload.workspaceId, payload.endpointId);
  if (!endpoint) return;
  const isTest = payload.event.type === WEBHOOK_TEST_EVENT;
  // A test event goes even to a disabled endpoint: that is how it is checked before being enabled again.
  if (!endpoint.enabled && !isTest) {
    const reason = endpoint.disabledReason ? `the endpoint is disabled (${endpoint.disabledReason})` : "the endpoint is disabled";
    await completeDelivery(db, payload.deliveryId, { status: "skipped", statusCode: null, durationMs: null, error: reason, responseBody: null }, context.now());
    return;
  }
  const body = JSON.stringify(payload.event);
  const secret = context.secrets.open(endpoint.secretCiphertext, endpoint.id);
  const response = secret
    ? await context.transport.post(endpoint.url, body, {
        [WEBHOOK_SIGNATURE_HEADER]: signWebhook(secret, Math.floor(context.now().getTime() / 1000), body),
        "frontdesk-event-id": payload.event.id,
        "frontdesk-event-type": payload.event.type,
      })
    : {
        statusCode: null,
        durationMs: 0,
        error: "the signing secret cannot be decrypted (was the service's secret, FRONTDESK_JWT_SECRET, changed?): delete the endpoint and create it again",
        responseBody: null,
      };
  const succeeded = response.error === null;
  const result: AttemptResult = { status: succeeded ? "succeeded" : "failed", ...response };
  const at = context.now();
  await db.transaction(async (tx) => {
    await completeDelivery(tx, payload.deliveryId, result, at);
    if (succeeded) {
      await recordEndpointSuccess(tx, endpoint.id, at);
      return;
    }
    // A test event is tried once and never counts against the endpoint.
    if (isTest) return;
    if (payload.attempt < settings.attempts) {
      const next = new Date(at.getTime() + retryDelayMs(settings, payload.attempt));
      const deliveryId = await insertPendingDelivery(tx, {
        endpointId: endpoint.id,
        workspaceId: endpoint.workspaceId,
        eventId: payload.event.id,
        eventType: payload.event.type,
        attempt: payload.attempt + 1,
        scheduledAt: next,
      });
      if (deliveryId) await context.jobs.send("deliver-webhook", { ...payload, deliveryId, attempt: payload.attempt + 1 }, tx, { startAfter: next });
      await recordEndpointFailingSince(tx, endpoint.id, at);
      return;
    }
    const locked = await findWebhookEndpoint(tx, endpoint.workspaceId, endpoint.id, true);
    if (!locked) return;
    const consecutiveFailures = locked.consecutiveFailures + 1;
    const failingSince = locked.failingSince ? new Date(locked.failingSince) : at;
    const failingMs = at.getTime() - failingSince.getTime();
    const disabledReason =
      consecutiveFailures >= settings.disableAfterFailures
        ? `${consecutiveFailures} consecutive deliveries failed every attempt (the last: ${response.error?.slice(0, 300)})`
        : failingMs >= settings.disableAfterMs
          ? `deliveries have failed since ${failingSince.toISOString()} without a success (the last: ${response.error?.slice(0, 300)})`
          : null;
    await recordEndpointFailure(tx, endpoint.id, { consecutiveFailures, failingSince, disabledReason: locked.enabled ? disabledReason : null, at });
  });
  if (payload.attempt === 1) await pruneEndpointDeliveries(db, endpoint.id, new Date(at.getTime() - DELIVERY_LOG_DAYS * 24 * 60 * 60 * 1000));
}
