import { setTimeout as delay } from "node:timers/promises";
import type { WebhookConfig } from "../config/webhooks.js";
import type { Queryable } from "../db/database.js";
import { claimWebhookAttempt, type DeliveryPayload } from "./claim-webhook-attempt.js";
import { completeDelivery, insertPendingDelivery, lockDelivery, pruneEndpointDeliveries, type AttemptResult } from "./webhook-delivery-repository.js";
import {
  findWebhookEndpoint,
  recordAttemptFailure,
  recordEndpointFailingSince,
  recordEndpointFailure,
  recordEndpointSuccess,
  type WebhookEndpointRecord,
} from "./webhook-endpoint-repository.js";
import { lockWebhookEventBody, pruneWebhookEvents, releaseWebhookEventBody, webhookEventExists } from "./webhook-event-repository.js";
import { WEBHOOK_SIGNATURE_HEADER, signWebhook } from "./webhook-signature.js";
import type { WebhookDeliveryContext } from "./webhook-delivery-context.js";
import type { WebhookResponse } from "./webhook-transport.js";

/** How long the delivery log keeps an endpoint's attempts. */
export const DELIVERY_LOG_DAYS = 30;


/** The wait before attempt `attempt + 1`: the base, doubled after each attempt (2, 4, 8, 16, 32 min by default). */
export function retryDelayMs(settings: WebhookConfig, attempt: number): number {
  return settings.retryBaseMs * 2 ** (attempt - 1);
}

/** How often an attempt under way looks whether its event was erased meanwhile (then it stops). */
const ERASURE_POLL_MS = 200;

/**
 * One attempt (the `deliver-webhook` job): claim it (claim-webhook-attempt.ts: the event's body,
 * the endpoint's circuit, the workspace's places), sign the body with the endpoint's secret at this
 * attempt's time, POST it (timeout, address guard, no redirects; stopped if the event is erased
 * meanwhile), then in one transaction record the attempt and either mark the endpoint healthy,
 * schedule the next attempt (its row and its job) while the event still exists, or, after the last
 * one, count the failed delivery and disable the endpoint past the thresholds. A deleted endpoint's
 * job ends quietly; a disabled one's attempt is recorded as `skipped`.
 */
export async function deliverWebhook(context: WebhookDeliveryContext, payload: DeliveryPayload): Promise<void> {
  const { db } = context;
  const endpoint = await findWebhookEndpoint(db, payload.workspaceId, payload.endpointId);
  if (!endpoint) return;
  const claim = await claimWebhookAttempt(context, endpoint, payload);
  if (claim.kind === "none") return;
  const secret = context.secrets.open(endpoint.secretCiphertext, endpoint.id);
  const response = secret
    ? await postWatchingErasure(context, payload, endpoint.url, claim.body, {
        [WEBHOOK_SIGNATURE_HEADER]: signWebhook(secret, Math.floor(context.now().getTime() / 1000), claim.body),
        "frontdesk-event-id": payload.eventId,
        "frontdesk-event-type": claim.eventType,
      })
    : {
        statusCode: null,
        durationMs: 0,
        error: "the signing secret cannot be decrypted (was the service's secret, FRONTDESK_JWT_SECRET, changed?): delete the endpoint and create it again",
        responseBody: null,
      };
  const at = context.now();
  await db.transaction((tx) => recordAttempt(tx, context, { endpoint, payload, response, isTest: claim.isTest, at }));
  if (payload.attempt === 1) {
    const logStart = new Date(at.getTime() - DELIVERY_LOG_DAYS * 24 * 60 * 60 * 1000);
    await pruneEndpointDeliveries(db, endpoint.id, logStart);
    await pruneWebhookEvents(db, endpoint.workspaceId, logStart);
  }
}

/** The POST, stopped as soon as the event it sends is erased (erasure waits for it to stop). */
async function postWatchingErasure(
  context: WebhookDeliveryContext,
  payload: DeliveryPayload,
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<WebhookResponse> {
  const erased = new AbortController();
  let watching = true;
  const watch = (async () => {
    while (watching) {
      await delay(ERASURE_POLL_MS);
      if (!watching) return;
      if (!(await webhookEventExists(context.db, payload.workspaceId, payload.eventId).catch(() => true))) erased.abort();
    }
  })();
  try {
    const response = await context.transport.post(url, body, headers, erased.signal);
    return erased.signal.aborted ? { ...response, error: ERASED_DURING_ATTEMPT, responseBody: null } : response;
  } finally {
    watching = false;
    await watch;
  }
}

const ERASED_DURING_ATTEMPT = "stopped: the visitor it was about was erased during the attempt";

/** The attempt's outcome, in one transaction: the log, the endpoint's health and circuit, the next attempt. */
async function recordAttempt(
  tx: Queryable,
  context: WebhookDeliveryContext,
  attempt: { endpoint: WebhookEndpointRecord; payload: DeliveryPayload; response: WebhookResponse; isTest: boolean; at: Date },
): Promise<void> {
  const { settings } = context;
  const { endpoint, payload, response, isTest, at } = attempt;
  // The attempt's row, then its event's: erasure's order. An event erased meanwhile keeps no answer and gets no retry.
  const delivery = await lockDelivery(tx, payload.workspaceId, payload.deliveryId);
  const eventLeft = (await lockWebhookEventBody(tx, payload.workspaceId, payload.eventId)) !== null;
  const succeeded = response.error === null;
  const result: AttemptResult = { status: succeeded ? "succeeded" : "failed", ...response, responseBody: eventLeft ? response.responseBody : null };
  await completeDelivery(tx, payload.deliveryId, result, at);
  if (succeeded) {
    await recordEndpointSuccess(tx, endpoint.id, at);
  } else if (response.error !== ERASED_DURING_ATTEMPT) {
    await recordAttemptFailure(tx, endpoint.id, { threshold: settings.circuitFailures, openUntil: new Date(at.getTime() + settings.circuitCooldownMs) });
  }
  // A test event is tried once and never counts against the endpoint; an erased event is over.
  if (succeeded || isTest || !eventLeft) {
    await releaseWebhookEventBody(tx, payload.workspaceId, payload.eventId);
    return;
  }
  if (payload.attempt < settings.attempts) {
    const next = new Date(at.getTime() + retryDelayMs(settings, payload.attempt));
    const deliveryId = await insertPendingDelivery(tx, {
      endpointId: endpoint.id,
      workspaceId: endpoint.workspaceId,
      eventId: payload.eventId,
      eventType: delivery?.eventType ?? "",
      attempt: payload.attempt + 1,
      scheduledAt: next,
    });
    if (deliveryId) await context.jobs.send("deliver-webhook", { ...payload, deliveryId, attempt: payload.attempt + 1 }, tx, { startAfter: next });
    await recordEndpointFailingSince(tx, endpoint.id, at);
    return;
  }
  await releaseWebhookEventBody(tx, payload.workspaceId, payload.eventId);
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
}
