import { setTimeout as sleep } from "node:timers/promises";
import { AppError } from "../http/app-error.js";
import { findAgent } from "../tenants/agents.js";
import { findRun, listRunResults, queueRun, type RunResultOfTest, type StoredRun } from "./answer-test-run-repository.js";
import { runQueuedAnswerTests, type RunningServices } from "./run-answer-tests.js";

/** How long the CLI waits for another run of the agent (a worker's) to end before it gives up. */
const WAIT_LIMIT_MS = 15 * 60_000;

/**
 * `admin answer-test run`: runs the agent's tests now, in this process, and returns the run with
 * its results. The run is the agent's queued one (a change waiting for its burst to end is taken
 * along); when a worker takes it first, or another run is under way, this waits for it to end.
 */
export async function runAnswerTestsNow(services: RunningServices, agentId: string): Promise<{ run: StoredRun; results: RunResultOfTest[] }> {
  const { db } = services;
  const agent = await findAgent(db, agentId);
  if (!agent) throw new AppError("agent_not_found", `No agent ${agentId}.`);
  const scope = { workspaceId: agent.workspaceId, agentId: agent.id };
  const queued = await queueRun(db, { ...scope, trigger: "cli" });
  if (queued === null) throw new AppError("validation_failed", "The agent has no answer tests to run.", { agent: ["has no answer tests"] });
  const deadline = Date.now() + WAIT_LIMIT_MS;
  let runId = queued.run.id;
  for (;;) {
    const { ran } = await runQueuedAnswerTests(services, scope);
    if (ran !== null) runId = ran.id;
    const run = await findRun(db, scope.workspaceId, runId);
    if (run && (run.status === "done" || run.status === "failed")) return { run, results: await listRunResults(db, run) };
    if (Date.now() > deadline) throw new AppError("service_unavailable", "Another run of this agent's tests is still under way; try again later.");
    await sleep(500);
  }
}
