import type { DomainEventSubscriber } from "../events/domain-events.js";
import type { FrontdeskEvent } from "../events/frontdesk-events.js";
import type { JobQueue } from "../jobs/job-queue.js";
import { listOperatorsPushSubscriptionIds, listWorkspacePushSubscriptionIds } from "./push-subscription-repository.js";

/**
 * The push alerts' subscriber: a human request queues one `send-push` job per device of every
 * operator of the workspace (the operators its inbox notifies), in the request's transaction, so
 * the alerts commit with it or not at all. Ids only: what the alert says is read when it is sent.
 * With no subscribed device it costs one indexed read. A note's mentions (`note.added`) queue one
 * job per device of each operator it names.
 */
export const queuePushAlertsOf =
  (jobs: JobQueue): DomainEventSubscriber<FrontdeskEvent> =>
  async (tx, event) => {
    if (event.type === "note.added") {
      // A mention: the devices of the operators the note names, the note named by id.
      const { workspaceId, conversationId } = event.conversation;
      const subscriptionIds = await listOperatorsPushSubscriptionIds(tx, workspaceId, event.mentioned.map((mention) => mention.operatorId));
      if (subscriptionIds.length === 0) return;
      await jobs.sendMany(
        "send-push",
        subscriptionIds.map((subscriptionId) => ({ subscriptionId, workspaceId, conversationId, attempt: 1, noteId: event.note.id })),
        tx,
      );
      return;
    }
    if (event.type !== "human.requested") return;
    const { workspaceId, conversationId } = event.conversation;
    // A request routed to an operator alerts their devices only (their inbox alone was notified).
    const subscriptionIds = await listWorkspacePushSubscriptionIds(tx, workspaceId, event.routedTo?.id);
    if (subscriptionIds.length === 0) return;
    await jobs.sendMany(
      "send-push",
      subscriptionIds.map((subscriptionId) => ({ subscriptionId, workspaceId, conversationId, attempt: 1 })),
      tx,
    );
  };
