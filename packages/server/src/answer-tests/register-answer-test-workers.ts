import type { Logger } from "pino";
import type { Services } from "../services.js";
import { runQueuedAnswerTests } from "./run-answer-tests.js";

/** A job that found another run of its agent under way looks again after this long. */
const RETRY_WHILE_BUSY_MS = 15_000;

/**
 * Starts this process's answer-test worker: one run at a time per process (each answers every
 * test of an agent, one question after the other, on the same generator as the visitors).
 */
export async function registerAnswerTestWorkers(services: Services, logger: Logger): Promise<{ close(): Promise<void> }> {
  await services.jobs.work("run-answer-tests", 1, async (payload) => {
    const { ran, waiting } = await runQueuedAnswerTests(services, payload);
    if (ran) logger.info({ agentId: payload.agentId, runId: ran.id, status: ran.status, passed: ran.passed, failed: ran.failed, regressed: ran.regressed }, "answer tests ran");
    // Another run of the agent is under way: this one's queued run starts after it.
    if (waiting) await services.jobs.send("run-answer-tests", payload, undefined, { startAfter: new Date(services.now().getTime() + RETRY_WHILE_BUSY_MS) });
  });
  return { async close() {} };
}
