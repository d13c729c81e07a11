/**
 * Answer tests as other domains, the console and the admin CLI reach them: `answer_tests`,
 * `answer_test_runs` and `answer_test_results` are owned by answer-tests/, whose repositories
 * alone hold their SQL.
 */
export { createAnswerTest } from "./create-answer-test.js";
export { deleteVisitorAnswerTests } from "./answer-test-repository.js";
export { requestAnswerTestRun, type RunRequestContext } from "./request-answer-test-run.js";
export { runAnswerTestsNow } from "./run-answer-tests-now.js";
export type { RunningServices } from "./run-answer-tests.js";
export { presentAnswerTest } from "./present-answer-tests.js";
