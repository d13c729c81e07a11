import type { Queryable } from "../db/database.js";
import type { JobQueue } from "../jobs/job-queue.js";
import { queueRun, type RunTrigger, type StoredRun } from "./answer-test-run-repository.js";

/** What queueing a run needs: the job queue, and how long a change waits for the next before the run starts. */
export interface RunRequestContext {
  jobs: JobQueue;
  debounceMs: number;
  now: () => Date;
}

/**
 * Queues a run of the agent's tests in the caller's transaction (its `run-answer-tests` job
 * commits with it). A change (`knowledge`, `curated`, `answering`) waits `debounceMs` for the rest
 * of its burst: a change made while a run is queued joins that run, so a burst is one run per
 * agent. On demand (`manual`, `cli`) the run starts at once, taking a queued one along. Null when
 * the agent has no test.
 */
export async function requestAnswerTestRun(
  tx: Queryable,
  context: RunRequestContext,
  scope: { workspaceId: string; agentId: string; trigger: RunTrigger },
): Promise<StoredRun | null> {
  const queued = await queueRun(tx, scope);
  if (queued === null) return null;
  const onDemand = scope.trigger === "manual" || scope.trigger === "cli";
  // A change joining a queued run needs no job: that run's job is on its way.
  if (!queued.created && !onDemand) return queued.run;
  const startAfter = onDemand || context.debounceMs === 0 ? undefined : new Date(context.now().getTime() + context.debounceMs);
  await context.jobs.send("run-answer-tests", { workspaceId: scope.workspaceId, agentId: scope.agentId }, tx, startAfter ? { startAfter } : undefined);
  return queued.run;
}
