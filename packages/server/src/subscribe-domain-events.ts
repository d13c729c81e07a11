import type { Config } from "./config/config.js";
import { createDomainEvents } from "./events/domain-events.js";
import type { FrontdeskEvents } from "./events/frontdesk-events.js";
import type { JobQueue } from "./jobs/job-queue.js";
import { queueMailChecksOf } from "./mail/mail-events.js";
import { queuePushAlertsOf } from "./push/queue-push-alerts.js";
import { queueWebhooksOf } from "./webhooks/webhook-events.js";

/**
 * Who reacts to the service's domain events, in the change's transaction: the webhooks (their
 * deliveries queued), e-mail (the jobs that decide whom to mail) and the operators' devices (their
 * push alerts queued). A composition root, like runtime.ts: the use cases raising the events import
 * none of their subscribers.
 */
export function subscribeDomainEvents(jobs: JobQueue, config: Config): FrontdeskEvents {
  return createDomainEvents([queueWebhooksOf(jobs), queueMailChecksOf(jobs, config.mail), queuePushAlertsOf(jobs)]);
}
