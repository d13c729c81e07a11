import type { AnswerTest, AnswerTestResult, AnswerTestRun } from "@frontdesk/contracts";
import type { StoredAnswerTest } from "./answer-test-repository.js";
import type { RunResultOfTest, StoredRun } from "./answer-test-run-repository.js";

export function presentAnswerTest(test: StoredAnswerTest, lastResult: AnswerTest["last_result"] = null): AnswerTest {
  return {
    id: test.id,
    agent_id: test.agentId,
    question: test.question,
    expect_kind: test.expect.kind,
    expect_value: test.expect.value,
    origin: test.origin,
    last_result: lastResult,
    created_at: test.createdAt,
  };
}

export function presentAnswerTestRun(run: StoredRun): AnswerTestRun {
  return {
    id: run.id,
    agent_id: run.agentId,
    status: run.status,
    trigger: run.trigger,
    total: run.total,
    passed: run.passed,
    failed: run.failed,
    regressed: run.regressed,
    pass_rate: run.status === "done" && run.total > 0 ? Math.round((run.passed / run.total) * 10_000) / 10_000 : null,
    error: run.error,
    queued_at: run.queuedAt,
    started_at: run.startedAt,
    finished_at: run.finishedAt,
  };
}

export function presentAnswerTestResult(result: RunResultOfTest): AnswerTestResult {
  return {
    test_id: result.testId,
    question: result.question,
    expect_kind: result.expectKind,
    expect_value: result.expectValue,
    passed: result.passed,
    reason: result.reason,
    regressed: result.regressed,
    answer: result.answer,
    citations: result.citations,
    low_confidence: result.lowConfidence,
  };
}
