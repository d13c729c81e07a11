import type { WebhookEventType } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { newId } from "../db/ids.js";
import type { JobQueue } from "../jobs/job-queue.js";
import { insertPendingDelivery } from "./webhook-delivery-repository.js";
import { listSubscribedEndpointIds } from "./webhook-endpoint-repository.js";
import { insertWebhookEvent, type WebhookEventSubject } from "./webhook-event-repository.js";

/** One occurrence of a webhook event, as the change that makes it knows it. */
export interface WebhookEventDraft {
  workspaceId: string;
  type: WebhookEventType;
  /** When it happened (the change's own timestamp). */
  at: string;
  data: Record<string, unknown>;
  /** Fixed where one occurrence may be recorded twice (a source settled by two workers): queued once. Else a new id. */
  id?: string;
  /** The visitor or conversation the event is about: erasure of that visitor deletes the event and ends its attempts. */
  subject?: WebhookEventSubject;
}

/**
 * Queues an event's deliveries in the transaction of the change it is about: the event's body
 * (webhook_events, with its subject), one pending attempt row and one `deliver-webhook` job naming
 * it per enabled endpoint subscribed to its type, committed with the change or not at all (a
 * process dying after the commit loses nothing). With no such endpoint it costs one indexed read
 * and writes nothing. Delivering is the workers' job, never the caller's.
 */
export async function queueWebhookEvent(tx: Queryable, jobs: JobQueue, draft: WebhookEventDraft): Promise<void> {
  const endpointIds = await listSubscribedEndpointIds(tx, draft.workspaceId, draft.type);
  if (endpointIds.length === 0) return;
  const event = { id: draft.id ?? newId("evt"), type: draft.type, created_at: draft.at, data: draft.data };
  const scheduledAt = new Date(draft.at);
  const payloads = [];
  for (const endpointId of endpointIds) {
    const delivery = { endpointId, workspaceId: draft.workspaceId, eventId: event.id, eventType: draft.type, attempt: 1, scheduledAt };
    const deliveryId = await insertPendingDelivery(tx, delivery);
    if (deliveryId) payloads.push({ endpointId, workspaceId: draft.workspaceId, deliveryId, attempt: 1, eventId: event.id });
  }
  if (payloads.length === 0) return;
  await insertWebhookEvent(tx, { id: event.id, workspaceId: draft.workspaceId, type: draft.type, body: JSON.stringify(event), subject: draft.subject ?? {} });
  await jobs.sendMany("deliver-webhook", payloads, tx);
}
