import { createDomainEvents } from "./events/domain-events.js";
import type { FrontdeskEvents } from "./events/frontdesk-events.js";
import type { JobQueue } from "./jobs/job-queue.js";
import { queueWebhooksOf } from "./webhooks/webhook-events.js";

/**
 * Who reacts to the service's domain events, in the change's transaction: the webhooks (their
 * deliveries queued). A composition root, like runtime.ts: the use cases raising the events import
 * none of their subscribers.
 */
export function subscribeDomainEvents(jobs: JobQueue): FrontdeskEvents {
  return createDomainEvents([queueWebhooksOf(jobs)]);
}
