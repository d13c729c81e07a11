import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { api, ApiError, dataOf, describeError } from "../api/client.js";
import { useOperator } from "../session.js";
import { ConfirmDialog } from "../settings/confirm-dialog.js";
import { useConfirmedAction } from "../settings/use-confirmed-action.js";
import { LabelChip } from "./label-chip.js";
import { LABELS_KEY, useLabels, type Label } from "./use-labels.js";
import "./labels.css";

const DEFAULT_COLOUR = "#1f6feb";

/** The name and colour fields of a label, to create one or to change one (admins). */
function LabelForm({ label, onDone }: { label: Label | null; onDone?: () => void }) {
  const queryClient = useQueryClient();
  const id = useId();
  const [name, setName] = useState(label?.name ?? "");
  const [colour, setColour] = useState(label?.colour ?? DEFAULT_COLOUR);
  const save = useMutation({
    mutationFn: () =>
      label
        ? dataOf(api.PATCH("/api/v1/console/labels/{id}", { params: { path: { id: label.id } }, body: { name: name.trim(), colour } }))
        : dataOf(api.POST("/api/v1/console/labels", { body: { name: name.trim(), colour } })),
    onSuccess: () => {
      if (!label) setName("");
      void queryClient.invalidateQueries({ queryKey: LABELS_KEY });
      // Conversations show labels by name and colour: a change shows everywhere.
      void queryClient.invalidateQueries({ queryKey: ["conversations"] });
      void queryClient.invalidateQueries({ queryKey: ["conversation"] });
      onDone?.();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const fields = save.error instanceof ApiError ? save.error.fields : undefined;
  return (
    <form className="labels-form" onSubmit={submit} aria-label={label ? `Change ${label.name}` : "Create a label"}>
      <div className="field">
        <label htmlFor={`${id}-name`}>{label ? "Name" : "New label"}</label>
        <input id={`${id}-name`} value={name} required maxLength={40} placeholder="Refund" onChange={(event) => setName(event.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-colour`}>Colour</label>
        <input id={`${id}-colour`} type="color" value={colour} onChange={(event) => setColour(event.target.value)} />
      </div>
      <button type="submit" className="primary" disabled={save.isPending || name.trim() === ""}>
        {label ? "Save" : "Create label"}
      </button>
      {label && (
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      )}
      {save.isError && (
        <p className="error" role="alert">
          {describeError(save.error)}
          {fields && ` ${Object.entries(fields).map(([field, messages]) => `${field.replace(/^body\./, "")}: ${messages.join(", ")}`).join("; ")}`}
        </p>
      )}
    </form>
  );
}

/** Settings → Labels: the workspace's labels with how many conversations carry each; admins create, change and delete them. */
export function LabelsSection() {
  const operator = useOperator();
  const queryClient = useQueryClient();
  const labels = useLabels();
  const [editing, setEditing] = useState<string | null>(null);
  const isAdmin = operator.role === "admin";
  const remove = useConfirmedAction({
    run: (label: Label) => dataOf(api.DELETE("/api/v1/console/labels/{id}", { params: { path: { id: label.id } } })),
    onDone: () => {
      void queryClient.invalidateQueries({ queryKey: LABELS_KEY });
      void queryClient.invalidateQueries({ queryKey: ["conversations"] });
      void queryClient.invalidateQueries({ queryKey: ["conversation"] });
    },
  });
  return (
    <section className="settings-card" aria-labelledby="labels-title">
      <h2 id="labels-title">Labels</h2>
      <p className="muted small">Operators put labels on conversations to group them; the inbox filters by label and Analytics counts conversations per label.</p>
      {labels.isPending && <p className="muted">Loading…</p>}
      {labels.isError && (
        <p className="error" role="alert">
          {describeError(labels.error)}
        </p>
      )}
      {labels.data && (
        <>
          {labels.data.length === 0 ? (
            <p className="empty">No labels yet.</p>
          ) : (
            <div className="table-scroller">
              <table className="settings-table">
                <caption className="visually-hidden">Labels</caption>
                <thead>
                  <tr>
                    <th scope="col">Label</th>
                    <th scope="col">Conversations</th>
                    {isAdmin && (
                      <th scope="col">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    )}
                  </tr>
                </thead>
                <tbody>
                  {labels.data.map((label) => (
                    <tr key={label.id}>
                      <th scope="row">
                        {editing === label.id ? <LabelForm label={label} onDone={() => setEditing(null)} /> : <LabelChip label={label} />}
                      </th>
                      <td>{label.conversations}</td>
                      {isAdmin && (
                        <td>
                          <div className="row-actions">
                            <button type="button" aria-label={`Change ${label.name}`} onClick={() => setEditing(label.id)} disabled={editing === label.id}>
                              Change
                            </button>
                            <button type="button" className="danger-outline" aria-label={`Delete ${label.name}`} onClick={() => remove.ask(label)}>
                              Delete
                            </button>
                          </div>
                        </td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {isAdmin ? <LabelForm label={null} /> : <p className="muted small">Admins create and change labels.</p>}
        </>
      )}
      {remove.target && remove.dialog && (
        <ConfirmDialog title={`Delete ${remove.target.name}?`} confirmLabel="Delete label" {...remove.dialog}>
          <p>
            It comes off the {remove.target.conversations === 1 ? "conversation that carries it" : `${remove.target.conversations} conversations that carry it`}. This
            cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
