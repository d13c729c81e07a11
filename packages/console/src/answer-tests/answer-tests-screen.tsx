import { useState } from "react";
import { useLocation, useSearch } from "wouter";
import { useAgentList } from "../agents/use-agents.js";
import { describeError } from "../api/client.js";
import { useReadAnswerTestNotificationsOf } from "../inbox/use-notifications.js";
import { AgentPicker } from "../knowledge/agent-picker.js";
import { useOperator } from "../session.js";
import { AddTestForm } from "./add-test-form.js";
import { ImportTestsForm } from "./import-tests-form.js";
import { PassRateChart, runDate, triggerLabel } from "./pass-rate-chart.js";
import { useAnswerTestMutations, useAnswerTestRun, useAnswerTestRuns, useAnswerTests, type AnswerTest, type AnswerTestRun } from "./use-answer-tests.js";
import "./answer-tests.css";

/** What a right answer must do, in words. */
export const expectationText = (test: { expect_kind: AnswerTest["expect_kind"]; expect_value: string | null }) =>
  test.expect_kind === "url" ? `Cites ${test.expect_value}` : test.expect_kind === "text" ? `Contains “${test.expect_value}”` : "Says it does not know";

function Outcome({ passed, reason }: { passed: boolean; reason: string }) {
  return (
    <span className={passed ? "answer-tests-outcome answer-tests-pass" : "answer-tests-outcome answer-tests-fail"}>
      <strong>{passed ? "Passed" : "Failed"}</strong>: {reason}
    </span>
  );
}

function TestList({ tests, admin, remove }: { tests: AnswerTest[]; admin: boolean; remove: ReturnType<typeof useAnswerTestMutations>["remove"] }) {
  if (tests.length === 0) return <p className="muted">No test yet: add one below, or import a CSV.</p>;
  return (
    <ul className="answer-tests-list" aria-label="Tests">
      {tests.map((test) => (
        <li key={test.id} className="answer-tests-item">
          <p className="answer-tests-question">{test.question}</p>
          <p className="muted small">{expectationText(test)}</p>
          {test.last_result ? <Outcome passed={test.last_result.passed} reason={test.last_result.reason} /> : <span className="muted small">Not run yet</span>}
          {admin && (
            <button type="button" className="answer-tests-delete" disabled={remove.isPending} onClick={() => remove.mutate(test.id)}>
              Delete<span className="visually-hidden">: {test.question}</span>
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

function RunResults({ runId }: { runId: string }) {
  const run = useAnswerTestRun(runId);
  if (run.isPending) return <p className="muted">Loading the results…</p>;
  if (run.isError) return <p className="error" role="alert">{describeError(run.error)}</p>;
  const { data } = run;
  return (
    <section aria-labelledby="answer-tests-results-title" className="answer-tests-panel">
      <h2 id="answer-tests-results-title">Results of the run of {runDate(data.finished_at)}</h2>
      <p className="muted small">
        {data.status === "failed" ? `The run failed: ${data.error ?? "unknown error"}.` : `${data.passed} of ${data.total} passed, ${triggerLabel(data.trigger)}${data.regressed > 0 ? `; ${data.regressed} passed before and fail now` : ""}.`}
      </p>
      <ol className="answer-tests-list" aria-label="Results, failures first">
        {data.results.map((result) => (
          <li key={result.test_id} className="answer-tests-item">
            <p className="answer-tests-question">
              {result.question} {result.regressed && <span className="badge answer-tests-regressed">Now failing</span>}
            </p>
            <Outcome passed={result.passed} reason={result.reason} />
            <details>
              <summary>The answer given</summary>
              <p className="answer-tests-answer">{result.answer || "(no answer: handed over to a person)"}</p>
            </details>
          </li>
        ))}
      </ol>
    </section>
  );
}

function RunStatus({ runs }: { runs: AnswerTestRun[] }) {
  const current = runs.find((run) => run.status === "queued" || run.status === "running");
  return (
    <span role="status" className="muted">
      {current ? (current.status === "running" ? "Running the tests…" : "A run is queued…") : ""}
    </span>
  );
}

/** Answer tests of an agent (`?agent=`): the pass rate over time, the tests, the latest run's results, and (admins) add, import, run. */
export function AnswerTestsScreen() {
  const agents = useAgentList();
  const admin = useOperator().role === "admin";
  const [, navigate] = useLocation();
  const chosen = new URLSearchParams(useSearch()).get("agent");
  const agent = agents.data?.find((candidate) => candidate.id === chosen) ?? agents.data?.[0] ?? null;
  const runs = useAnswerTestRuns(agent?.id ?? null);
  const lastFinished = runs.data?.find((run) => run.status === "done" || run.status === "failed") ?? null;
  const tests = useAnswerTests(agent?.id ?? null, lastFinished?.id ?? null);
  const [runError, setRunError] = useState<string | null>(null);

  return (
    <div className="answer-tests">
      <header className="knowledge-header">
        <h1>Answer tests</h1>
        {agents.data && agents.data.length > 0 && agent && (
          <AgentPicker agents={agents.data} value={agent.id} onChange={(agentId) => navigate(`/answer-tests?agent=${encodeURIComponent(agentId)}`, { replace: true })} />
        )}
      </header>
      {agents.isPending && <p className="pane-message">Loading…</p>}
      {agents.isError && <p className="pane-message" role="alert">{describeError(agents.error)}</p>}
      {agents.data && !agent && <p className="pane-message">No agent yet: create one in Agents first.</p>}
      {agent && <AgentTests key={agent.id} agentId={agent.id} agentName={agent.name} admin={admin} runs={runs.data ?? []} tests={tests} lastFinished={lastFinished} runError={runError} setRunError={setRunError} />}
    </div>
  );
}

function AgentTests(props: {
  agentId: string;
  agentName: string;
  admin: boolean;
  runs: AnswerTestRun[];
  tests: ReturnType<typeof useAnswerTests>;
  lastFinished: AnswerTestRun | null;
  runError: string | null;
  setRunError: (error: string | null) => void;
}) {
  const { agentId, agentName, admin, runs, tests, lastFinished, runError, setRunError } = props;
  const mutations = useAnswerTestMutations(agentId);
  // The admins' inbox told them of tests that fail now: seeing them here reads it.
  useReadAnswerTestNotificationsOf(agentId);
  const busy = runs.some((run) => run.status === "queued" || run.status === "running");
  return (
    <div className="answer-tests-columns">
      <section aria-labelledby="answer-tests-title" className="answer-tests-panel">
        <div className="answer-tests-panel-top">
          <h2 id="answer-tests-title">Tests of {agentName}</h2>
          {admin && (
            <button type="button" className="primary" disabled={busy || mutations.run.isPending || (tests.data?.length ?? 0) === 0} onClick={() => mutations.run.mutate(undefined, { onSuccess: () => setRunError(null), onError: (error) => setRunError(describeError(error)) })}>
              Run tests now
            </button>
          )}
        </div>
        <p className="muted small">Each question is asked as a visitor would ask it. Tests also run by themselves after a re-sync, a curated answer or a model change.</p>
        <RunStatus runs={runs} />
        {runError && <p className="error" role="alert">{runError}</p>}
        {tests.isPending && <p className="muted">Loading the tests…</p>}
        {tests.isError && <p className="error" role="alert">{describeError(tests.error)}</p>}
        {tests.data && <TestList tests={tests.data} admin={admin} remove={mutations.remove} />}
      </section>
      <section aria-label="Pass rate" className="answer-tests-panel">
        <PassRateChart runs={runs} />
      </section>
      {lastFinished && <RunResults runId={lastFinished.id} />}
      {admin && (
        <section aria-label="New tests" className="answer-tests-panel">
          <AddTestForm agentId={agentId} create={mutations.create} />
          <ImportTestsForm importCsv={mutations.importCsv} />
        </section>
      )}
    </div>
  );
}
