import { ANSWER_TEST_RUNS_MAX } from "@frontdesk/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { operatorGuard, operatorOf } from "../console/authenticate-operator.js";
import { AppError } from "../http/app-error.js";
import type { Services } from "../services.js";
import { findWorkspaceAgent } from "../tenants/agents.js";
import { deleteAnswerTest, listAgentAnswerTests } from "./answer-test-repository.js";
import { findRun, latestResultsOfAgent, listAgentRuns, listRunResults } from "./answer-test-run-repository.js";
import { createAnswerTest } from "./create-answer-test.js";
import { importAnswerTests } from "./import-answer-tests.js";
import { presentAnswerTest, presentAnswerTestResult, presentAnswerTestRun } from "./present-answer-tests.js";
import { requestAnswerTestRun } from "./request-answer-test-run.js";
import {
  createAnswerTestRouteSchema,
  deleteAnswerTestRouteSchema,
  importAnswerTestsRouteSchema,
  listAnswerTestRunsRouteSchema,
  listAnswerTestsRouteSchema,
  showAnswerTestRunRouteSchema,
  startAnswerTestRunRouteSchema,
} from "./schemas.js";

async function requireAgent(services: Services, workspaceId: string, agentId: string) {
  const agent = await findWorkspaceAgent(services.db, workspaceId, agentId);
  if (!agent) throw new AppError("agent_not_found", `No agent ${agentId} in this workspace.`);
  return agent;
}

/**
 * Answer tests under /api/v1/console/answer-tests: admins create, import, delete and run them; any
 * operator reads the tests, the runs (the pass rate over time) and a run's results. Everything is
 * the operator's workspace's (another's is 404).
 */
export const answerTestRoutes: FastifyPluginAsyncZod = async (app) => {
  const services = app.services;
  const guard = operatorGuard(services);
  // Their schemas require the admin role (consoleAdminSecurity): the console's role guard refuses an agent before validation.
  const admin = operatorGuard(services);
  const runContext = { jobs: services.jobs, debounceMs: services.config.answerTests.debounceMs, now: services.now };

  app.get("/answer-tests", { schema: listAnswerTestsRouteSchema, preValidation: guard }, async (request) => {
    const operator = operatorOf(request);
    const agent = await requireAgent(services, operator.workspaceId, request.query.agent_id);
    const scope = { workspaceId: operator.workspaceId, agentId: agent.id };
    const [tests, latest] = await Promise.all([listAgentAnswerTests(services.db, scope), latestResultsOfAgent(services.db, scope)]);
    return {
      data: tests.map((test) => {
        const last = latest.get(test.id);
        return presentAnswerTest(test, last ? { run_id: last.runId, passed: last.passed, reason: last.reason, at: last.at } : null);
      }),
    };
  });

  app.post("/answer-tests", { schema: createAnswerTestRouteSchema, preValidation: admin }, async (request, reply) => {
    const operator = operatorOf(request);
    return reply.status(201).send({ data: presentAnswerTest(await createAnswerTest(services.db, operator.workspaceId, request.body, "console")) });
  });

  app.post("/answer-tests/import", { schema: importAnswerTestsRouteSchema, preValidation: admin }, async (request, reply) => {
    const operator = operatorOf(request);
    const { created, errors } = await importAnswerTests(services.db, operator.workspaceId, request.body);
    return reply.status(201).send({ data: { created: created.map((test) => presentAnswerTest(test)), errors } });
  });

  app.delete("/answer-tests/:id", { schema: deleteAnswerTestRouteSchema, preValidation: admin }, async (request, reply) => {
    const operator = operatorOf(request);
    if (!(await deleteAnswerTest(services.db, operator.workspaceId, request.params.id))) {
      throw new AppError("not_found", `No answer test ${request.params.id} in this workspace.`);
    }
    return reply.code(204).send(null);
  });

  app.post("/answer-tests/runs", { schema: startAnswerTestRunRouteSchema, preValidation: admin }, async (request, reply) => {
    const operator = operatorOf(request);
    const agent = await requireAgent(services, operator.workspaceId, request.body.agent_id);
    const run = await services.db.transaction((tx) => requestAnswerTestRun(tx, runContext, { workspaceId: operator.workspaceId, agentId: agent.id, trigger: "manual" }));
    if (run === null) throw new AppError("validation_failed", "The agent has no answer tests to run.", { agent_id: ["has no answer tests"] });
    return reply.status(202).send({ data: presentAnswerTestRun(run) });
  });

  app.get("/answer-tests/runs", { schema: listAnswerTestRunsRouteSchema, preValidation: guard }, async (request) => {
    const operator = operatorOf(request);
    const agent = await requireAgent(services, operator.workspaceId, request.query.agent_id);
    return { data: (await listAgentRuns(services.db, { workspaceId: operator.workspaceId, agentId: agent.id }, ANSWER_TEST_RUNS_MAX)).map(presentAnswerTestRun) };
  });

  app.get("/answer-tests/runs/:id", { schema: showAnswerTestRunRouteSchema, preValidation: guard }, async (request) => {
    const operator = operatorOf(request);
    const run = await findRun(services.db, operator.workspaceId, request.params.id);
    if (!run) throw new AppError("not_found", `No answer-test run ${request.params.id} in this workspace.`);
    return { data: { ...presentAnswerTestRun(run), results: (await listRunResults(services.db, run)).map(presentAnswerTestResult) } };
  });
};
