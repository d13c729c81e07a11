import { useId } from "react";
import { useLabels } from "./use-labels.js";
import "./labels.css";

/** The inbox's filter by label: every label of the workspace, or none ("Any label"). Hidden while the workspace has none. */
export function LabelFilter({ value, onChange }: { value: string | null; onChange: (labelId: string | null) => void }) {
  const labels = useLabels();
  const id = useId();
  if (!labels.data || (labels.data.length === 0 && value === null)) return null;
  return (
    <div className="label-filter">
      <label htmlFor={id}>Label</label>
      <select id={id} value={value ?? ""} onChange={(event) => onChange(event.target.value || null)}>
        <option value="">Any label</option>
        {labels.data.map((label) => (
          <option key={label.id} value={label.id}>
            {label.name}
          </option>
        ))}
      </select>
    </div>
  );
}
