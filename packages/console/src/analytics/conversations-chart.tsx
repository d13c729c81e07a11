import { useId } from "react";
import { formatDay } from "./format.js";

const WIDTH = 720;
const HEIGHT = 200;
const LEFT = 36;
const BOTTOM = 24;
const TOP = 10;

/** A round top for the axis: 1, 2, 5 × a power of ten, at least the largest value (and 1 for an empty period). */
function axisTop(largest: number): number {
  if (largest <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(largest));
  for (const step of [1, 2, 5, 10]) if (step * power >= largest) return step * power;
  return 10 * power;
}

/**
 * Conversations per day as SVG bars (one picture for sighted readers, described by its caption), and
 * the same figures as a table for everyone else, a disclosure away.
 */
export function ConversationsChart({ perDay }: { perDay: readonly { date: string; conversations: number }[] }) {
  const titleId = useId();
  const top = axisTop(Math.max(0, ...perDay.map((day) => day.conversations)));
  const plotWidth = WIDTH - LEFT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const slot = plotWidth / Math.max(1, perDay.length);
  const barWidth = Math.max(1, slot * 0.7);
  const yOf = (value: number) => TOP + plotHeight - (value / top) * plotHeight;
  // At most about eight day labels under the bars.
  const labelEvery = Math.max(1, Math.ceil(perDay.length / 8));
  const total = perDay.reduce((sum, day) => sum + day.conversations, 0);
  const busiest = perDay.reduce<{ date: string; conversations: number } | null>((best, day) => (best === null || day.conversations > best.conversations ? day : best), null);
  return (
    <figure className="chart">
      <figcaption id={titleId}>
        <h2>Conversations per day</h2>
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={titleId} aria-describedby={`${titleId}-summary`} className="chart-svg">
        {[0, top / 2, top].map((tick) => (
          <g key={tick} className="chart-grid">
            <line x1={LEFT} x2={WIDTH} y1={yOf(tick)} y2={yOf(tick)} />
            <text x={LEFT - 6} y={yOf(tick)} dy="0.35em" textAnchor="end">
              {Number.isInteger(tick) ? tick : ""}
            </text>
          </g>
        ))}
        {perDay.map((day, index) => {
          const x = LEFT + index * slot + (slot - barWidth) / 2;
          return (
            <g key={day.date}>
              {day.conversations > 0 && (
                <rect className="chart-bar" x={x} y={yOf(day.conversations)} width={barWidth} height={yOf(0) - yOf(day.conversations)} rx={Math.min(3, barWidth / 3)}>
                  <title>{`${formatDay(day.date)}: ${day.conversations}`}</title>
                </rect>
              )}
              {index % labelEvery === 0 && (
                <text className="chart-label" x={LEFT + index * slot + slot / 2} y={HEIGHT - 6} textAnchor="middle">
                  {formatDay(day.date)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <p id={`${titleId}-summary`} className="muted chart-summary">
        {total} conversation{total === 1 ? "" : "s"} over {perDay.length} day{perDay.length === 1 ? "" : "s"}
        {busiest && busiest.conversations > 0 ? `; the busiest day was ${formatDay(busiest.date, true)} with ${busiest.conversations}.` : "."}
      </p>
      <details className="chart-table">
        <summary>Show as a table</summary>
        <table>
          <caption className="visually-hidden">Conversations per day</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Conversations</th>
            </tr>
          </thead>
          <tbody>
            {perDay.map((day) => (
              <tr key={day.date}>
                <th scope="row">
                  <time dateTime={day.date}>{formatDay(day.date, true)}</time>
                </th>
                <td>{day.conversations}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
