import type { Database } from "../db/database.js";
import { newId } from "../db/ids.js";
import type { JobQueue } from "../jobs/job-queue.js";
import type { EventBus } from "../realtime/event-bus.js";
import { insertPendingDelivery } from "./webhook-delivery-repository.js";
import { listSubscribedEndpointIds } from "./webhook-endpoint-repository.js";
import { webhookEventOf, type WebhookCandidate } from "./webhook-event-of.js";

export interface WebhookFanOutOptions {
  db: Database;
  jobs: JobQueue;
  bus: EventBus;
  now: () => Date;
  onError: (error: unknown) => void;
}

export interface WebhookFanOut {
  /** Stops listening and waits for the events being queued. */
  close(): Promise<void>;
}

/**
 * Listens to the bus, where every change that makes a webhook event is announced once it has
 * committed, and queues one `deliver-webhook` job per subscribed endpoint: its first attempt's row
 * and its job in one transaction. Runs beside the request, never in it (the publisher does not
 * wait), and never delivers anything itself: the workers do. Installed once per process that
 * publishes such events (buildApp for `serve`, the `worker` command for its sources).
 */
export function startWebhookFanOut(options: WebhookFanOutOptions): WebhookFanOut {
  const inFlight = new Set<Promise<void>>();
  const unsubscribe = options.bus.subscribe((event) => {
    const candidate = webhookEventOf(event, options.now);
    if (!candidate) return;
    const queued = queueDeliveries(options, candidate)
      .catch(options.onError)
      .finally(() => inFlight.delete(queued));
    inFlight.add(queued);
  });
  return {
    async close() {
      unsubscribe();
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}

async function queueDeliveries(options: WebhookFanOutOptions, candidate: WebhookCandidate): Promise<void> {
  const { db, jobs } = options;
  const endpointIds = await listSubscribedEndpointIds(db, candidate.workspaceId, candidate.type);
  if (endpointIds.length === 0) return;
  const data = await candidate.data(db);
  if (data === null) return;
  const eventId = candidate.eventId ? await candidate.eventId(db) : newId("evt");
  if (eventId === null) return;
  const event = { id: eventId, type: candidate.type, created_at: candidate.at, data };
  const scheduledAt = options.now();
  await db.transaction(async (tx) => {
    for (const endpointId of endpointIds) {
      const delivery = { endpointId, workspaceId: candidate.workspaceId, eventId, eventType: candidate.type, attempt: 1, scheduledAt };
      const deliveryId = await insertPendingDelivery(tx, delivery);
      if (deliveryId) await jobs.send("deliver-webhook", { endpointId, workspaceId: candidate.workspaceId, deliveryId, attempt: 1, event }, tx);
    }
  });
}
