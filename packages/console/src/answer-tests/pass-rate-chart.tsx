import { useId } from "react";
import type { AnswerTestRun } from "./use-answer-tests.js";

const WIDTH = 720;
const HEIGHT = 180;
const LEFT = 40;
const BOTTOM = 24;
const TOP = 10;
/** The chart shows the latest finished runs, oldest on the left. */
const RUNS_SHOWN = 30;

const dateFormat = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
export const runDate = (iso: string | null) => (iso ? dateFormat.format(new Date(iso)) : "—");
const percent = (rate: number | null) => (rate === null ? "—" : `${Math.round(rate * 100)} %`);
const TRIGGERS: Record<AnswerTestRun["trigger"], string> = {
  manual: "on demand",
  cli: "from the CLI",
  knowledge: "after a knowledge change",
  curated: "after a curated answer changed",
  answering: "after a model or instructions change",
};
export const triggerLabel = (trigger: AnswerTestRun["trigger"]) => TRIGGERS[trigger];

/**
 * The pass rate of each finished run as SVG bars (described by a one-line summary), and every run
 * as a table behind "Show as a table", as Analytics shows its figures.
 */
export function PassRateChart({ runs }: { runs: readonly AnswerTestRun[] }) {
  const titleId = useId();
  const finished = runs.filter((run) => run.status === "done" && run.pass_rate !== null).slice(0, RUNS_SHOWN).reverse();
  const plotWidth = WIDTH - LEFT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const slot = plotWidth / Math.max(1, finished.length);
  const barWidth = Math.max(2, Math.min(48, slot * 0.7));
  const yOf = (rate: number) => TOP + plotHeight - rate * plotHeight;
  const latest = finished.at(-1);
  return (
    <figure className="chart">
      <figcaption id={titleId}>
        <h2>Pass rate over time</h2>
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={titleId} aria-describedby={`${titleId}-summary`} className="chart-svg">
        {[0, 0.5, 1].map((tick) => (
          <g key={tick} className="chart-grid">
            <line x1={LEFT} x2={WIDTH} y1={yOf(tick)} y2={yOf(tick)} />
            <text x={LEFT - 6} y={yOf(tick)} dy="0.35em" textAnchor="end">
              {`${tick * 100}%`}
            </text>
          </g>
        ))}
        {finished.map((run, index) => {
          const rate = run.pass_rate ?? 0;
          const x = LEFT + index * slot + (slot - barWidth) / 2;
          return (
            <rect key={run.id} className={run.regressed > 0 ? "chart-bar answer-tests-bar-regressed" : "chart-bar"} x={x} y={yOf(rate)} width={barWidth} height={Math.max(1, yOf(0) - yOf(rate))} rx={3}>
              <title>{`${runDate(run.finished_at)}: ${run.passed} of ${run.total} passed (${percent(run.pass_rate)}), ${triggerLabel(run.trigger)}`}</title>
            </rect>
          );
        })}
      </svg>
      <p id={`${titleId}-summary`} className="muted chart-summary">
        {latest
          ? `${finished.length} finished run${finished.length === 1 ? "" : "s"}; the latest, ${runDate(latest.finished_at)}, passed ${latest.passed} of ${latest.total} (${percent(latest.pass_rate)}).`
          : "No finished run yet."}
      </p>
      <details className="chart-table">
        <summary>Show as a table</summary>
        <table>
          <caption className="visually-hidden">Answer-test runs, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Run</th>
              <th scope="col">Why</th>
              <th scope="col">Passed</th>
              <th scope="col">Pass rate</th>
              <th scope="col">Now failing</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((run) => (
              <tr key={run.id}>
                <th scope="row">{run.status === "done" ? runDate(run.finished_at) : run.status === "failed" ? `${runDate(run.finished_at)} (failed)` : `${run.status}…`}</th>
                <td>{triggerLabel(run.trigger)}</td>
                <td>{run.status === "done" ? `${run.passed} of ${run.total}` : "—"}</td>
                <td>{percent(run.pass_rate)}</td>
                <td>{run.status === "done" ? run.regressed : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
