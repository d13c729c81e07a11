import type { DomainEventSubscriber } from "../events/domain-events.js";
import type { FrontdeskEvent } from "../events/frontdesk-events.js";
import type { JobQueue } from "../jobs/job-queue.js";
import { requestAnswerTestRun } from "./request-answer-test-run.js";

/**
 * The answer tests' subscriber: a change that may move an agent's answers queues a run of its
 * tests, in the change's transaction, after `debounceMs` (a burst of changes joins one run):
 * - `source.settled`: a sync or re-sync ended (one that failed with nothing indexed changed nothing);
 * - `agent.answering.changed`: the agents' model or instructions changed;
 * - `curated_answer.changed`: a curated answer (the first stage of every answer) was written or deleted.
 * An agent without tests gets no run.
 */
export const queueAnswerTestRunsOf =
  (jobs: JobQueue, settings: { debounceMs: number }): DomainEventSubscriber<FrontdeskEvent> =>
  async (tx, event) => {
    const context = { jobs, debounceMs: settings.debounceMs, now: () => new Date() };
    switch (event.type) {
      case "source.settled":
        if (event.status === "failed" && event.pages.indexed === 0) return;
        await requestAnswerTestRun(tx, context, { workspaceId: event.workspaceId, agentId: event.agentId, trigger: "knowledge" });
        return;
      case "curated_answer.changed":
        await requestAnswerTestRun(tx, context, { workspaceId: event.workspaceId, agentId: event.agentId, trigger: "curated" });
        return;
      case "agent.answering.changed":
        for (const agentId of [...new Set(event.agentIds)].sort()) {
          await requestAnswerTestRun(tx, context, { workspaceId: event.workspaceId, agentId, trigger: "answering" });
        }
        return;
      default:
        return;
    }
  };
