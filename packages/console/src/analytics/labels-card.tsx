import { LabelChip } from "../labels/label-chip.js";
import type { AgentAnalytics } from "./use-analytics.js";
import "../labels/labels.css";

/** Conversations of the period per label: each label's chip, a bar (for the eye) and its count (for everyone). */
export function LabelsCard({ labels, total }: { labels: AgentAnalytics["labels"]; total: number }) {
  const largest = Math.max(1, ...labels.map((label) => label.conversations));
  return (
    <section aria-labelledby="analytics-labels" className="analytics-card analytics-labels">
      <h2 id="analytics-labels">Conversations per label</h2>
      {labels.length === 0 ? (
        <p className="muted">No labels yet: admins create them in Settings, operators put them on conversations.</p>
      ) : (
        <ol className="funnel">
          {labels.map((label) => (
            <li key={label.id}>
              <span className="funnel-label">
                <LabelChip label={label} />
              </span>
              <span className="funnel-track" aria-hidden="true">
                <span className="funnel-bar" style={{ width: `${(label.conversations / largest) * 100}%` }} />
              </span>
              <span className="funnel-value">
                {label.conversations}
                <span className="visually-hidden"> of {total} conversations</span>
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
