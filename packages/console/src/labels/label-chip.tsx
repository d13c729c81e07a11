import type { ReactNode } from "react";
import type { ConversationLabel } from "./use-labels.js";

/**
 * A label as a chip: its name in the page's own text colour, with a swatch of its colour beside it,
 * so the name carries the meaning and the contrast never depends on the colour chosen.
 */
export function LabelChip({ label, children }: { label: ConversationLabel; children?: ReactNode }) {
  return (
    <span className="label-chip" data-label-id={label.id}>
      <span className="label-swatch" style={{ backgroundColor: label.colour }} aria-hidden="true" />
      <span className="label-name">{label.name}</span>
      {children}
    </span>
  );
}

/** A conversation's labels as a list of chips (nothing when it has none). */
export function LabelChips({ labels }: { labels: readonly ConversationLabel[] }) {
  if (labels.length === 0) return null;
  return (
    <span className="label-chips" role="list" aria-label="Labels">
      {labels.map((label) => (
        <span role="listitem" key={label.id}>
          <LabelChip label={label} />
        </span>
      ))}
    </span>
  );
}
