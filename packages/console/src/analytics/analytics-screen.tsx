import { useId } from "react";
import { useLocation, useSearch } from "wouter";
import { ApiError, describeError } from "../api/client.js";
import { ConversationsChart } from "./conversations-chart.js";
import { LabelsCard } from "./labels-card.js";
import { dayBefore, formatDuration, formatShare, todayUtc } from "./format.js";
import { useOperator } from "../session.js";
import { useAgentChoices, useAnalytics, useAnalyticsLive, type AgentAnalytics } from "./use-analytics.js";
import "./analytics.css";

const PRESETS = [7, 30, 90] as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A figure with its label, and what it is of. */
function Figure({ label, value, detail }: { label: string; value: string; detail?: string }) {
  return (
    <div className="figure">
      <dt>{label}</dt>
      <dd>
        <span className="figure-value">{value}</span>
        {detail && <span className="figure-detail muted">{detail}</span>}
      </dd>
    </div>
  );
}

function Figures({ data }: { data: AgentAnalytics }) {
  const { outcomes, satisfaction, first_operator_reply: reply } = data;
  const ratings = satisfaction.good + satisfaction.bad;
  const outcome = (count: number) => `${count} of ${data.conversations.total}`;
  return (
    <section aria-labelledby="analytics-figures" className="analytics-card">
      <h2 id="analytics-figures">Outcomes</h2>
      <dl className="figures">
        <Figure label="Conversations" value={String(data.conversations.total)} />
        <Figure label="Answered" value={formatShare(outcomes.answered.share)} detail={outcome(outcomes.answered.count)} />
        <Figure label="Answered with low confidence" value={formatShare(outcomes.answered_low_confidence.share)} detail={outcome(outcomes.answered_low_confidence.count)} />
        <Figure label="Handed to a human" value={formatShare(outcomes.handed_to_human.share)} detail={outcome(outcomes.handed_to_human.count)} />
        <Figure label="Unanswered" value={formatShare(outcomes.unanswered.share)} detail={outcome(outcomes.unanswered.count)} />
        <Figure
          label="Satisfaction"
          value={formatShare(satisfaction.share_good)}
          detail={ratings === 0 ? "no ratings" : `${satisfaction.good} good, ${satisfaction.bad} bad`}
        />
        <Figure
          label="Resolved, confirmed by the visitor"
          value={formatShare(data.resolutions.confirmed.share)}
          detail={`${outcome(data.resolutions.confirmed.count)}, without a person`}
        />
        <Figure
          label="Ended without a person, unconfirmed"
          value={formatShare(data.resolutions.ended_without_person.share)}
          detail={outcome(data.resolutions.ended_without_person.count)}
        />
        <Figure
          label="Answers rated"
          value={`${data.answer_ratings.up} up, ${data.answer_ratings.down} down`}
          detail={data.answer_ratings.down > 0 ? "see Review answers" : undefined}
        />
        <Figure
          label="Median first operator reply"
          value={formatDuration(reply.median_seconds)}
          detail={`over ${reply.conversations} answered handover${reply.conversations === 1 ? "" : "s"}`}
        />
      </dl>
    </section>
  );
}

function TopQuestions({ questions }: { questions: AgentAnalytics["top_questions"] }) {
  return (
    <section aria-labelledby="analytics-questions" className="analytics-card">
      <h2 id="analytics-questions">Top questions</h2>
      {questions.length === 0 ? (
        <p className="empty">No questions in this period.</p>
      ) : (
        <table className="data-table" aria-labelledby="analytics-questions">
          <thead>
            <tr>
              <th scope="col">Question</th>
              <th scope="col" className="numeric">
                Times asked
              </th>
            </tr>
          </thead>
          <tbody>
            {questions.map((question) => (
              <tr key={question.question}>
                <td>{question.question}</td>
                <td className="numeric">{question.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Funnel({ funnel }: { funnel: AgentAnalytics["funnel"] }) {
  const steps = [
    { label: "Opened the launcher", value: funnel.launcher_opened },
    { label: "Had a conversation", value: funnel.conversations },
    { label: "Left their details (leads)", value: funnel.leads },
  ];
  const largest = Math.max(1, ...steps.map((step) => step.value));
  return (
    <section aria-labelledby="analytics-funnel" className="analytics-card">
      <h2 id="analytics-funnel">Funnel</h2>
      <ol className="funnel">
        {steps.map((step) => (
          <li key={step.label}>
            <span className="funnel-label">{step.label}</span>
            <span className="funnel-track" aria-hidden="true">
              <span className="funnel-bar" style={{ width: `${(step.value / largest) * 100}%` }} />
            </span>
            <span className="funnel-value">{step.value}</span>
          </li>
        ))}
      </ol>
      <p className="muted small">Visitors in the period; a conversation may start without the launcher (a starter prompt, the JavaScript API).</p>
    </section>
  );
}

/** Analytics: one agent's figures over a period of UTC days, chosen in the URL (`?agent=&from=&to=`), kept current by the workspace's events. */
export function AnalyticsScreen() {
  const parameters = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const agents = useAgentChoices();
  useAnalyticsLive(useOperator().workspace_id);
  const agentFieldId = useId();
  const fromFieldId = useId();
  const toFieldId = useId();

  const to = DAY.test(parameters.get("to") ?? "") ? parameters.get("to")! : todayUtc();
  const from = DAY.test(parameters.get("from") ?? "") ? parameters.get("from")! : dayBefore(to, 29);
  const agentId = parameters.get("agent") ?? agents.data?.[0]?.id ?? null;
  const analytics = useAnalytics(agentId ? { agentId, from, to } : null);

  const go = (change: { agent?: string; from?: string; to?: string }) => {
    const next = new URLSearchParams({ agent: change.agent ?? agentId ?? "", from: change.from ?? from, to: change.to ?? to });
    navigate(`/analytics?${next.toString()}`, { replace: true });
  };

  return (
    <div className="analytics">
      <header className="screen-header">
        <h1>Analytics</h1>
        <form className="analytics-controls" aria-label="Agent and period" onSubmit={(event) => event.preventDefault()}>
          <label htmlFor={agentFieldId}>Agent</label>
          <select id={agentFieldId} value={agentId ?? ""} disabled={!agents.data?.length} onChange={(event) => go({ agent: event.target.value })}>
            {agents.data?.map((agent) => (
              <option key={agent.id} value={agent.id}>
                {agent.name}
              </option>
            ))}
          </select>
          <label htmlFor={fromFieldId}>From</label>
          <input id={fromFieldId} type="date" value={from} max={to} onChange={(event) => DAY.test(event.target.value) && go({ from: event.target.value })} />
          <label htmlFor={toFieldId}>To</label>
          <input id={toFieldId} type="date" value={to} min={from} onChange={(event) => DAY.test(event.target.value) && go({ to: event.target.value })} />
          <span className="presets" role="group" aria-label="Recent periods">
            {PRESETS.map((days) => {
              const today = todayUtc();
              const current = to === today && from === dayBefore(today, days - 1);
              return (
                <button key={days} type="button" className="chip-button" aria-pressed={current} onClick={() => go({ from: dayBefore(today, days - 1), to: today })}>
                  Last {days} days
                </button>
              );
            })}
          </span>
        </form>
        <p className="muted small">Days are UTC; conversations count on the day they started.</p>
      </header>
      <div className="analytics-body" aria-busy={analytics.isFetching}>
        {agents.isError && (
          <p className="error" role="alert">
            {describeError(agents.error)}
          </p>
        )}
        {agents.data?.length === 0 && <p className="empty">No agent yet: create one to see its figures.</p>}
        {analytics.isError && (
          <p className="error" role="alert">
            {describeError(analytics.error)}
            {analytics.error instanceof ApiError &&
              analytics.error.fields &&
              ` ${Object.entries(analytics.error.fields)
                .map(([field, messages]) => `${field.replace(/^querystring\./, "")}: ${messages.join(", ")}.`)
                .join(" ")}`}
          </p>
        )}
        {analytics.isPending && agentId && <p className="pane-message">Loading…</p>}
        {analytics.data && (
          <>
            <div className="analytics-card analytics-chart">
              <ConversationsChart perDay={analytics.data.conversations.per_day} />
            </div>
            <Figures data={analytics.data} />
            <Funnel funnel={analytics.data.funnel} />
            <TopQuestions questions={analytics.data.top_questions} />
            <LabelsCard labels={analytics.data.labels} total={analytics.data.conversations.total} />
          </>
        )}
      </div>
    </div>
  );
}
