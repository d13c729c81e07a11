import type { Database } from "../db/database.js";
import type { FrontdeskEvents } from "../events/frontdesk-events.js";
import { findWorkspaceAgent } from "../tenants/agents.js";
import { listAgentAnswerTests } from "./answer-test-repository.js";
import { claimQueuedRun, failRun, finishRun, previousOutcomes, type RunResult, type StoredRun } from "./answer-test-run-repository.js";
import { askAgent, type AskingServices } from "./ask-agent.js";
import { judgeAnswer } from "./judge-answer.js";

/** What running tests needs: asking the agent, and raising the regression event. */
export type RunningServices = AskingServices & { db: Database; events: FrontdeskEvents; now: () => Date };

/** One question's answer may take this long (a model that hangs fails its test, not the run). */
const QUESTION_TIMEOUT_MS = 60_000;
/** A run still `running` after this long was left by a worker that died. */
export const RUN_STALE_AFTER_MS = 30 * 60_000;

/**
 * Runs a started run: every test of the agent asked through the answering pipeline, one after the
 * other, judged against its expectation, then, in one transaction, the results stored, the run
 * marked done with its counts, and, when tests that passed in the previous finished run fail now,
 * `answer_tests.regressed` raised (its subscribers e-mail the admins, notify their inboxes and
 * queue the webhook). A run that cannot finish is marked failed with why.
 */
export async function runStartedRun(services: RunningServices, run: StoredRun): Promise<{ run: StoredRun; results: RunResult[] }> {
  try {
    const agent = await findWorkspaceAgent(services.db, run.workspaceId, run.agentId);
    if (!agent) throw new Error("the agent was deleted");
    const tests = await listAgentAnswerTests(services.db, run);
    const previous = await previousOutcomes(services.db, run);
    const results: RunResult[] = [];
    for (const test of tests) {
      const turn = await askAgent(services, agent, test.question, AbortSignal.timeout(QUESTION_TIMEOUT_MS));
      const verdict = judgeAnswer(test.expect, turn);
      results.push({
        testId: test.id,
        ...verdict,
        regressed: !verdict.passed && previous.get(test.id) === true,
        answer: turn.kind === "reply" ? turn.content : "",
        citations: turn.kind === "reply" ? [...turn.citations] : [],
        lowConfidence: turn.kind === "handoff" || turn.lowConfidence,
      });
    }
    const finished = await services.db.transaction(async (tx) => {
      const done = await finishRun(tx, run, results);
      const regressed = results.filter((result) => result.regressed);
      if (regressed.length > 0) {
        const questionOf = new Map(tests.map((test) => [test.id, test.question]));
        await services.events.raise(tx, {
          type: "answer_tests.regressed",
          workspaceId: run.workspaceId,
          agentId: run.agentId,
          runId: run.id,
          finishedAt: done.finishedAt ?? services.now().toISOString(),
          tests: regressed.map((result) => ({ id: result.testId, question: questionOf.get(result.testId) ?? "", reason: result.reason })),
        });
      }
      return done;
    });
    return { run: finished, results };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await failRun(services.db, run, message);
    return { run: { ...run, status: "failed", error: message }, results: [] };
  }
}

/**
 * Starts and runs the agent's queued run, if it can start now. `waiting`: a queued run is left
 * because another of the agent's runs is under way (the caller tries again later).
 */
export async function runQueuedAnswerTests(services: RunningServices, scope: { workspaceId: string; agentId: string }): Promise<{ ran: StoredRun | null; waiting: boolean }> {
  const claimed = await claimQueuedRun(services.db, { ...scope, staleBefore: new Date(services.now().getTime() - RUN_STALE_AFTER_MS) });
  if (claimed.run === null) return { ran: null, waiting: claimed.waiting };
  return { ran: (await runStartedRun(services, claimed.run)).run, waiting: false };
}
