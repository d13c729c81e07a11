import { useState } from "react";
import { describeError } from "../api/client.js";
import { ConfirmDialog } from "../settings/confirm-dialog.js";
import { useOperator } from "../session.js";
import { SavedReplyForm } from "./saved-reply-form.js";
import { useSavedReplies, useSavedReplyMutations, type SavedReply } from "./use-saved-replies.js";
import "./saved-replies.css";

function ReplyList({
  title,
  replies,
  canManage,
  onEdit,
  onDelete,
}: {
  title: string;
  replies: SavedReply[];
  canManage: boolean;
  onEdit(reply: SavedReply): void;
  onDelete(reply: SavedReply): void;
}) {
  return (
    <section className="saved-replies-panel" aria-label={title}>
      <h2>{title}</h2>
      {replies.length === 0 ? (
        <p className="muted">None yet.</p>
      ) : (
        <ul className="saved-replies-list">
          {replies.map((reply) => (
            <li key={reply.id} className="saved-replies-item">
              <p className="saved-replies-heading">
                <code className="saved-reply-shortcut">/{reply.shortcut}</code> <strong>{reply.title}</strong>
              </p>
              <p className="saved-replies-content">{reply.content}</p>
              {canManage && (
                <p className="saved-replies-actions">
                  <button type="button" onClick={() => onEdit(reply)}>
                    Change<span className="visually-hidden"> /{reply.shortcut}</span>
                  </button>
                  <button type="button" className="danger-outline" onClick={() => onDelete(reply)}>
                    Delete<span className="visually-hidden"> /{reply.shortcut}</span>
                  </button>
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * Saved replies: the team's (admins manage them) and the operator's own. In a conversation's reply
 * box, `/` and a shortcut inserts one with its variables filled.
 */
export function SavedRepliesScreen() {
  const operator = useOperator();
  const admin = operator.role === "admin";
  const replies = useSavedReplies();
  const { create, update, remove } = useSavedReplyMutations();
  const [editing, setEditing] = useState<SavedReply | null>(null);
  const [deleting, setDeleting] = useState<SavedReply | null>(null);
  const all = replies.data ?? [];
  return (
    <div className="saved-replies">
      <h1>Saved replies</h1>
      <p className="muted">Type / and a shortcut in a conversation's reply box to insert one, filled for that conversation.</p>
      {replies.isPending && <p className="muted">Loading…</p>}
      {replies.isError && (
        <p className="error" role="alert">
          {describeError(replies.error)}
        </p>
      )}
      <div className="saved-replies-columns">
        <div className="saved-replies-lists">
          <ReplyList title="The team's" replies={all.filter((reply) => reply.scope === "workspace")} canManage={admin} onEdit={setEditing} onDelete={setDeleting} />
          <ReplyList title="Yours" replies={all.filter((reply) => reply.scope === "personal")} canManage onEdit={setEditing} onDelete={setDeleting} />
        </div>
        <div className="saved-replies-panel">
          {editing ? (
            <SavedReplyForm
              key={editing.id}
              reply={editing}
              admin={admin}
              pending={update.isPending}
              error={update.error}
              onSave={(draft) =>
                update.mutateAsync({ id: editing.id, body: { title: draft.title, shortcut: draft.shortcut, content: draft.content } }).then(() => setEditing(null))
              }
              onCancel={() => {
                update.reset();
                setEditing(null);
              }}
            />
          ) : (
            <SavedReplyForm admin={admin} pending={create.isPending} error={create.error} onSave={(draft) => create.mutateAsync(draft)} />
          )}
        </div>
      </div>
      {deleting && (
        <ConfirmDialog
          title={`Delete /${deleting.shortcut}?`}
          confirmLabel="Delete"
          pending={remove.isPending}
          error={remove.error ? describeError(remove.error) : null}
          onConfirm={() => remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
          onCancel={() => {
            remove.reset();
            setDeleting(null);
          }}>
          <p>
            “{deleting.title}” will no longer be offered in the reply box{deleting.scope === "workspace" ? " of anyone in the team" : ""}.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
