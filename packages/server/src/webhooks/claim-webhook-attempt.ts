import { WEBHOOK_TEST_EVENT } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import type { JobPayload } from "../jobs/job-catalog.js";
import type { WebhookDeliveryContext } from "./webhook-delivery-context.js";
import { completeDelivery, countDeliveriesUnderWay, lockDelivery, postponeDelivery, startDelivery } from "./webhook-delivery-repository.js";
import type { WebhookEndpointRecord } from "./webhook-endpoint-repository.js";
import { passCircuit } from "./webhook-endpoint-repository.js";
import { lockWebhookEventBody, releaseWebhookEventBody } from "./webhook-event-repository.js";

export type DeliveryPayload = JobPayload<"deliver-webhook">;

/** What a worker may do with the attempt it picked. */
export type AttemptClaim =
  /** Send this body: the attempt is `sending` on a lease. */
  | { kind: "send"; body: string; eventType: string; isTest: boolean }
  /** Nothing to send: made already, under way elsewhere, skipped (endpoint disabled, event erased) or moved later. */
  | { kind: "none" };

/** The wait added to a lease beyond the transport's deadline, for the completion's own transaction. */
export const LEASE_GRACE_MS = 5_000;

/** A postponed attempt comes back after this, spread a little so that many do not return at once. */
const jitter = (ms: number) => ms + Math.floor(Math.random() * 500);

/**
 * Claims one attempt in one short transaction, taking its locks in the order erasure takes them
 * (the attempt's row, then its event's): an erasure that committed first leaves nothing to send,
 * and an erasure that comes after finds the attempt `sending` and waits for it. Then the fairness
 * gates, unless the event is a test: the endpoint's circuit (open: wait for its cool-down; past it,
 * one trial), and the workspace's places (FRONTDESK_WEBHOOK_WORKSPACE_CONCURRENCY attempts under
 * way at once across processes). A postponed attempt gets a new job at its new time.
 */
export async function claimWebhookAttempt(context: WebhookDeliveryContext, endpoint: WebhookEndpointRecord, payload: DeliveryPayload): Promise<AttemptClaim> {
  const { settings } = context;
  const leaseMs = settings.timeoutMs + LEASE_GRACE_MS;
  return context.db.transaction(async (tx): Promise<AttemptClaim> => {
    const delivery = await lockDelivery(tx, payload.workspaceId, payload.deliveryId);
    if (!delivery?.claimable) return { kind: "none" };
    const now = context.now();
    const skip = async (reason: string) => {
      await completeDelivery(tx, payload.deliveryId, { status: "skipped", statusCode: null, durationMs: null, error: reason, responseBody: null }, now);
      await releaseWebhookEventBody(tx, payload.workspaceId, payload.eventId);
      return { kind: "none" } as const;
    };
    const body = await lockWebhookEventBody(tx, payload.workspaceId, payload.eventId);
    if (body === null) return skip("Not delivered: the visitor it was about was erased.");
    const isTest = delivery.eventType === WEBHOOK_TEST_EVENT;
    // A test event goes even to a disabled endpoint: that is how it is checked before being enabled again.
    if (!endpoint.enabled && !isTest) return skip(endpoint.disabledReason ? `the endpoint is disabled (${endpoint.disabledReason})` : "the endpoint is disabled");
    const later = await fairnessWait(tx, context, endpoint, { isTest, now, leaseMs });
    if (later) {
      await postponeDelivery(tx, payload.deliveryId, later);
      await context.jobs.send("deliver-webhook", payload, tx, { startAfter: later });
      return { kind: "none" };
    }
    await startDelivery(tx, payload.deliveryId, leaseMs);
    return { kind: "send", body, eventType: delivery.eventType, isTest };
  });
}

/** When the attempt must wait instead (the workspace's places taken, the endpoint's circuit open), or null. */
async function fairnessWait(
  tx: Queryable,
  context: WebhookDeliveryContext,
  endpoint: WebhookEndpointRecord,
  attempt: { isTest: boolean; now: Date; leaseMs: number },
): Promise<Date | null> {
  const { settings } = context;
  const underWay = await countDeliveriesUnderWay(tx, endpoint.workspaceId);
  if (underWay.count >= settings.workspaceConcurrency) {
    // Back when a place is likely free: the first lease's end, or sooner (most attempts end well before their lease).
    const soonest = Math.min(underWay.firstLeaseEnd ? underWay.firstLeaseEnd.getTime() - Date.now() : 1_000, 1_000);
    return new Date(attempt.now.getTime() + jitter(Math.max(soonest, 100)));
  }
  // A test is how an admin checks a receiver they mended: it is never held by the circuit it may close.
  if (attempt.isTest) return null;
  const openUntil = await passCircuit(tx, endpoint.id, {
    threshold: settings.circuitFailures,
    trialLeaseUntil: new Date(attempt.now.getTime() + attempt.leaseMs),
    now: attempt.now,
  });
  return openUntil ? new Date(jitter(openUntil.getTime())) : null;
}
