import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, dataOf, type Schemas } from "../api/client.js";
import type { paths } from "../api/generated/frontdesk-api.js";

export type AnswerTest = Schemas["AnswerTest"];
export type AnswerTestRun = Schemas["AnswerTestRun"];
export type CreateTestBody = NonNullable<paths["/api/v1/console/answer-tests"]["post"]["requestBody"]>["content"]["application/json"];

export const ANSWER_TESTS_QUERY_KEY = ["answer-tests"] as const;
export const ANSWER_TEST_RUNS_QUERY_KEY = ["answer-test-runs"] as const;

/** While a run is queued or running, its lists are read again this often (the worker announces nothing). */
const RUNNING_REREAD_MS = 1500;

const underWay = (runs: readonly AnswerTestRun[] | undefined) => (runs ?? []).some((run) => run.status === "queued" || run.status === "running");

/** An agent's runs, newest first: read again every 1.5 s while one is queued or running. */
export function useAnswerTestRuns(agentId: string | null) {
  return useQuery({
    queryKey: [...ANSWER_TEST_RUNS_QUERY_KEY, agentId],
    queryFn: async () => (await dataOf(api.GET("/api/v1/console/answer-tests/runs", { params: { query: { agent_id: agentId! } } }))).data,
    enabled: agentId !== null,
    refetchInterval: (query) => (underWay(query.state.data) ? RUNNING_REREAD_MS : false),
  });
}

/** An agent's tests with their latest results (read again when a run ends: the runs' key changes it). */
export function useAnswerTests(agentId: string | null, lastFinishedRunId: string | null) {
  return useQuery({
    queryKey: [...ANSWER_TESTS_QUERY_KEY, agentId, lastFinishedRunId],
    queryFn: async () => (await dataOf(api.GET("/api/v1/console/answer-tests", { params: { query: { agent_id: agentId! } } }))).data,
    enabled: agentId !== null,
    placeholderData: (previous) => previous,
  });
}

/** A finished run with each test's result. */
export function useAnswerTestRun(runId: string | null) {
  return useQuery({
    queryKey: [...ANSWER_TEST_RUNS_QUERY_KEY, "detail", runId],
    queryFn: async () => (await dataOf(api.GET("/api/v1/console/answer-tests/runs/{id}", { params: { path: { id: runId! } } }))).data,
    enabled: runId !== null,
  });
}

/** Create, import, delete and run; each reads the lists again. */
export function useAnswerTestMutations(agentId: string) {
  const queryClient = useQueryClient();
  const settled = () => {
    void queryClient.invalidateQueries({ queryKey: ANSWER_TESTS_QUERY_KEY });
    void queryClient.invalidateQueries({ queryKey: ANSWER_TEST_RUNS_QUERY_KEY });
  };
  return {
    create: useMutation({ mutationFn: async (body: CreateTestBody) => (await dataOf(api.POST("/api/v1/console/answer-tests", { body }))).data, onSettled: settled }),
    importCsv: useMutation({
      mutationFn: async (csv: string) => (await dataOf(api.POST("/api/v1/console/answer-tests/import", { body: { agent_id: agentId, csv } }))).data,
      onSettled: settled,
    }),
    remove: useMutation({ mutationFn: (id: string) => dataOf(api.DELETE("/api/v1/console/answer-tests/{id}", { params: { path: { id } } })), onSettled: settled }),
    run: useMutation({ mutationFn: async () => (await dataOf(api.POST("/api/v1/console/answer-tests/runs", { body: { agent_id: agentId } }))).data, onSettled: settled }),
  };
}
