import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { api, dataOf, describeError } from "../api/client.js";
import { LabelChip } from "./label-chip.js";
import { LABELS_KEY, useLabels, type ConversationLabel } from "./use-labels.js";
import "./labels.css";

/**
 * A conversation's labels in its view: each a chip with a button that takes it off, and a menu that
 * puts on one of the workspace's others. Any operator may; the answer (the labels now) replaces
 * the conversation's, and the inbox and the labels' counts are read again.
 */
export function ConversationLabels({ conversationId, labels, onChange }: { conversationId: string; labels: readonly ConversationLabel[]; onChange: (labels: ConversationLabel[]) => void }) {
  const queryClient = useQueryClient();
  const workspace = useLabels();
  const selectId = useId();
  const path = (labelId: string) => ({ params: { path: { id: conversationId, label_id: labelId } } });
  const change = useMutation({
    mutationFn: ({ labelId, on }: { labelId: string; on: boolean }) =>
      on
        ? dataOf(api.PUT("/api/v1/console/conversations/{id}/labels/{label_id}", path(labelId)))
        : dataOf(api.DELETE("/api/v1/console/conversations/{id}/labels/{label_id}", path(labelId))),
    onSuccess: (answer) => {
      onChange(answer.data.labels);
      void queryClient.invalidateQueries({ queryKey: ["conversations"] });
      void queryClient.invalidateQueries({ queryKey: LABELS_KEY });
    },
  });
  const carried = new Set(labels.map((label) => label.id));
  const others = (workspace.data ?? []).filter((label) => !carried.has(label.id));
  return (
    <div className="conversation-labels" role="group" aria-label="Labels of this conversation">
      {labels.length === 0 && <span className="muted small">No labels</span>}
      {labels.map((label) => (
        <LabelChip key={label.id} label={label}>
          <button
            type="button"
            className="label-remove"
            aria-label={`Remove label ${label.name}`}
            disabled={change.isPending}
            onClick={() => change.mutate({ labelId: label.id, on: false })}
          >
            <span aria-hidden="true">×</span>
          </button>
        </LabelChip>
      ))}
      {others.length > 0 && (
        <>
          <label htmlFor={selectId} className="visually-hidden">
            Add a label
          </label>
          <select
            id={selectId}
            value=""
            disabled={change.isPending}
            onChange={(event) => {
              if (event.target.value) change.mutate({ labelId: event.target.value, on: true });
            }}
          >
            <option value="">Add label…</option>
            {others.map((label) => (
              <option key={label.id} value={label.id}>
                {label.name}
              </option>
            ))}
          </select>
        </>
      )}
      {change.isError && (
        <span className="error small" role="alert">
          {describeError(change.error)}
        </span>
      )}
    </div>
  );
}
