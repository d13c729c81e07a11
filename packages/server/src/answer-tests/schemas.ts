import {
  ANSWER_TEST_RUNS_MAX,
  ANSWER_TESTS_PER_AGENT_MAX,
  answerTestListQuerySchema,
  answerTestListResponseSchema,
  answerTestParamsSchema,
  answerTestResponseSchema,
  answerTestResultSchema,
  answerTestRunDetailResponseSchema,
  answerTestRunListQuerySchema,
  answerTestRunListResponseSchema,
  answerTestRunResponseSchema,
  answerTestRunSchema,
  answerTestSchema,
  createAnswerTestBodySchema,
  importAnswerTestsBodySchema,
  importAnswerTestsResponseSchema,
  startAnswerTestRunBodySchema,
} from "@frontdesk/contracts";
import { componentSchemas } from "../openapi/component-schemas.js";
import { documentMembers } from "../openapi/document-members.js";
import { errorResponse, jsonResponse, noContentResponse } from "../openapi/route-responses.js";
import { consoleAdminSecurity, consoleErrorResponses, consoleReadErrors, consoleSecurity, consoleWriteErrors } from "../console/console-responses.js";

documentMembers(answerTestSchema);
documentMembers(answerTestRunSchema);
documentMembers(answerTestResultSchema);
componentSchemas.add(answerTestSchema, { id: "AnswerTest", description: "A test question of an agent with what a right answer must do, and its latest result." });
componentSchemas.add(answerTestRunSchema, { id: "AnswerTestRun", description: "One run of an agent's answer tests: its counts, and its pass rate once done." });
componentSchemas.add(answerTestResultSchema, { id: "AnswerTestResult", description: "One test's outcome in a run, with why." });

const tags = ["console"];
const adminWriteErrors = { ...consoleWriteErrors, 403: consoleErrorResponses.csrf };
const agentNotFound = errorResponse("`agent_not_found`: no agent with this id in the operator's workspace.");
const readErrors = { ...consoleReadErrors, 404: agentNotFound, 422: errorResponse("`validation_failed`: `agent_id` is missing or invalid.") };

export const listAnswerTestsRouteSchema = {
  tags,
  operationId: "listConsoleAnswerTests",
  summary: "List an agent's answer tests",
  description: "The agent's answer tests, oldest first, each with its result in the latest finished run. Any role.",
  security: consoleSecurity,
  querystring: answerTestListQuerySchema,
  response: { 200: jsonResponse("The tests.", answerTestListResponseSchema), ...readErrors },
};

export const createAnswerTestRouteSchema = {
  tags,
  operationId: "createConsoleAnswerTest",
  summary: "Create an answer test",
  description:
    "A test question with one expectation: `expect_url` (a right answer cites this page: an absolute URL, or a path such as `/returns` " +
    "matched on any host), `expect_text` (contains this phrase, case and spacing ignored) or `expect_unsure: true` (says it does not know, " +
    "or hands over to a person). From a curated answer (`curated_answer_id`): its question and source URL (else the first sentence of its " +
    "answer) unless given. From a bot reply (`message_id`, e.g. a rated-down answer of the review queue): the visitor's message before it as " +
    `the question, with the expectation given. At most ${ANSWER_TESTS_PER_AGENT_MAX} tests per agent. Admins only.`,
  security: consoleAdminSecurity,
  body: createAnswerTestBodySchema,
  response: {
    201: jsonResponse("The test.", answerTestResponseSchema),
    ...adminWriteErrors,
    404: errorResponse("`agent_not_found`: no such agent in the workspace; `not_found`: no curated answer `curated_answer_id`, or no bot message `message_id`, in the workspace."),
  },
};

export const importAnswerTestsRouteSchema = {
  tags,
  operationId: "importConsoleAnswerTests",
  summary: "Import answer tests from CSV",
  description:
    "Creates a test per good row of the CSV (header `question,expect_url,expect_text,expect_unsure`, one expectation per row, " +
    "`expect_unsure` true/yes/1) and reports each bad row with its number (the header is row 1) and why. 422 when the file cannot be read, " +
    "its header differs, or no row is good (each row's error in `fields`, as `row N`). Admins only.",
  security: consoleAdminSecurity,
  body: importAnswerTestsBodySchema,
  response: { 201: jsonResponse("The tests created, and the rows refused.", importAnswerTestsResponseSchema), ...adminWriteErrors, 404: agentNotFound },
};

export const deleteAnswerTestRouteSchema = {
  tags,
  operationId: "deleteConsoleAnswerTest",
  summary: "Delete an answer test",
  description: "Deletes the test and its results. Admins only.",
  security: consoleAdminSecurity,
  params: answerTestParamsSchema,
  response: {
    204: noContentResponse("Deleted."),
    401: consoleErrorResponses.unauthenticated,
    403: consoleErrorResponses.csrf,
    404: errorResponse("`not_found`: no answer test with this id in the operator's workspace."),
    422: consoleWriteErrors[422],
    500: consoleReadErrors[500],
  },
};

export const startAnswerTestRunRouteSchema = {
  tags,
  operationId: "startConsoleAnswerTestRun",
  summary: "Run an agent's answer tests",
  description:
    "Queues a run of the agent's tests now (a run already queued by a change is started now instead) and answers it, `queued`: " +
    "a worker asks each question through the visitors' answering path and records pass or fail with a reason. Read it again with " +
    "`GET /answer-tests/runs/{id}`. 422 when the agent has no test. Admins only.",
  security: consoleAdminSecurity,
  body: startAnswerTestRunBodySchema,
  response: { 202: jsonResponse("The queued run.", answerTestRunResponseSchema), ...adminWriteErrors, 404: agentNotFound },
};

export const listAnswerTestRunsRouteSchema = {
  tags,
  operationId: "listConsoleAnswerTestRuns",
  summary: "List an agent's answer-test runs (pass rate over time)",
  description: `The agent's runs, newest first (at most ${ANSWER_TEST_RUNS_MAX}): what started each, its counts and pass rate. Any role.`,
  security: consoleSecurity,
  querystring: answerTestRunListQuerySchema,
  response: { 200: jsonResponse("The runs.", answerTestRunListResponseSchema), ...readErrors },
};

export const showAnswerTestRunRouteSchema = {
  tags,
  operationId: "showConsoleAnswerTestRun",
  summary: "Show an answer-test run with its results",
  description: "The run and each test's result (failures first): passed or not, why, whether it regressed, and the answer given. Any role.",
  security: consoleSecurity,
  params: answerTestParamsSchema,
  response: {
    200: jsonResponse("The run.", answerTestRunDetailResponseSchema),
    ...consoleReadErrors,
    404: errorResponse("`not_found`: no answer-test run with this id in the operator's workspace."),
    422: errorResponse("`validation_failed`: the id is invalid."),
  },
};
