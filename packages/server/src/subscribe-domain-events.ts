import type { Logger } from "pino";
import type { Config } from "./config/config.js";
import { announceSourceUpdatesOf, SourceUpdatePublisher } from "./console/knowledge/source-update-publisher.js";
import type { Queryable } from "./db/database.js";
import { createDomainEvents } from "./events/domain-events.js";
import type { FrontdeskEvents } from "./events/frontdesk-events.js";
import type { JobQueue } from "./jobs/job-queue.js";
import { queueMailChecksOf } from "./mail/mail-events.js";
import { queuePushAlertsOf } from "./push/queue-push-alerts.js";
import { publishBusEventsOf } from "./realtime/bus-events-of-domain-events.js";
import type { EventBus } from "./realtime/event-bus.js";
import { queueWebhooksOf } from "./webhooks/webhook-events.js";
import { queueAnswerTestRunsOf } from "./answer-tests/answer-test-events.js";
import { notifyInboxOf } from "./inbox/inbox-events.js";
import { forgetCachedSessionsOf } from "./widget/forget-cached-sessions.js";
import type { SessionCache } from "./widget/session-cache.js";

/** What hears of a change once it is committed: this process's session cache and realtime bus. */
export interface AfterCommitListeners {
  db: Queryable;
  bus: EventBus;
  sessionCache: SessionCache;
  logger: Logger;
}

/**
 * Who reacts to the service's domain events. In the change's transaction: the webhooks (their
 * deliveries queued), e-mail (the jobs that decide whom to mail, or the alert itself), the
 * operators' devices (their push alerts queued), the inbox (its notifications) and the answer tests
 * (a run queued after a change of knowledge or model). Once it committed (`live`): the session cache forgets what changed, then the
 * realtime bus tells the consoles (the sources' state read again first). A composition root, like
 * runtime.ts: the use cases raising the events import none of their subscribers. Without `live`
 * (a process or a test that tells no console) nothing runs after the commit.
 */
export function subscribeDomainEvents(jobs: JobQueue, config: Config, live?: AfterCommitListeners): FrontdeskEvents {
  const inTransaction = [
    queueWebhooksOf(jobs),
    queueMailChecksOf(jobs, config.mail, config.publicUrl),
    queuePushAlertsOf(jobs),
    notifyInboxOf(),
    queueAnswerTestRunsOf(jobs, config.answerTests),
  ];
  if (!live) return createDomainEvents({ inTransaction });
  const sourceUpdates = new SourceUpdatePublisher(live.db, live.bus, (error) => live.logger.warn({ err: error }, "source update not announced"));
  return createDomainEvents({
    inTransaction,
    afterCommit: [forgetCachedSessionsOf(live.sessionCache), announceSourceUpdatesOf(sourceUpdates), publishBusEventsOf(live.bus)],
    onAfterCommitError: (error, event) => live.logger.error({ err: error, event: event.type }, "after-commit subscriber failed; the change is committed"),
  });
}
