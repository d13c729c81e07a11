import { useId, useState, type FormEvent } from "react";
import { describeError } from "../api/client.js";
import { FieldError, fieldErrorsOf, invalidProps } from "../agents/field-errors.js";
import type { SavedReply } from "./use-saved-replies.js";

export interface SavedReplyDraft {
  scope: "workspace" | "personal";
  title: string;
  shortcut: string;
  content: string;
}

const FIELDS = ["scope", "title", "shortcut", "content"];

/**
 * A saved reply's fields: a new one (`reply` absent; admins choose the workspace's or their own)
 * or a change of one. The server's 422 is shown beside its field (an unknown variable in the text,
 * a shortcut taken).
 */
export function SavedReplyForm({
  reply,
  admin,
  pending,
  error,
  onSave,
  onCancel,
}: {
  reply?: SavedReply;
  admin: boolean;
  pending: boolean;
  error: unknown;
  onSave(draft: SavedReplyDraft): Promise<unknown>;
  onCancel?: () => void;
}) {
  const id = useId();
  const [scope, setScope] = useState<SavedReplyDraft["scope"]>(reply?.scope ?? "personal");
  const [title, setTitle] = useState(reply?.title ?? "");
  const [shortcut, setShortcut] = useState(reply?.shortcut ?? "");
  const [content, setContent] = useState(reply?.content ?? "");
  const [saved, setSaved] = useState<string | null>(null);
  const fields = fieldErrorsOf(error);
  const general = error && !Object.keys(fields).some((name) => FIELDS.includes(name)) ? describeError(error) : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(null);
    onSave({ scope, title, shortcut, content }).then(
      () => {
        setSaved(reply ? "Saved." : "Saved reply added.");
        if (!reply) {
          setTitle("");
          setShortcut("");
          setContent("");
        }
      },
      () => undefined,
    );
  };
  return (
    <form className="saved-reply-form" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{reply ? `Change /${reply.shortcut}` : "Add a saved reply"}</h2>
      {!reply && admin && (
        <fieldset className="kind-choice">
          <legend>Who can use it</legend>
          <label>
            <input type="radio" name={`${id}-scope`} checked={scope === "personal"} onChange={() => setScope("personal")} /> Only me
          </label>
          <label>
            <input type="radio" name={`${id}-scope`} checked={scope === "workspace"} onChange={() => setScope("workspace")} /> The whole team
          </label>
        </fieldset>
      )}
      <div className="knowledge-field">
        <label htmlFor={`${id}-name`}>Title</label>
        <input id={`${id}-name`} value={title} maxLength={100} onChange={(event) => setTitle(event.target.value)} {...invalidProps(fields, "title", `${id}-name`)} />
        <FieldError fields={fields} field="title" id={`${id}-name`} />
      </div>
      <div className="knowledge-field">
        <label htmlFor={`${id}-shortcut`}>Shortcut (typed after / in the reply box)</label>
        <input
          id={`${id}-shortcut`}
          value={shortcut}
          maxLength={32}
          autoCapitalize="off"
          spellCheck={false}
          onChange={(event) => setShortcut(event.target.value)}
          {...invalidProps(fields, "shortcut", `${id}-shortcut`)}
        />
        <FieldError fields={fields} field="shortcut" id={`${id}-shortcut`} />
      </div>
      <div className="knowledge-field">
        <label htmlFor={`${id}-content`}>Text</label>
        <p id={`${id}-variables`} className="muted small">
          Variables: <code>{"{{visitor.name}}"}</code>, <code>{"{{agent.name}}"}</code>, <code>{"{{operator.name}}"}</code>; a fallback after a bar:{" "}
          <code>{"{{visitor.name|there}}"}</code>.
        </p>
        <textarea
          id={`${id}-content`}
          value={content}
          rows={4}
          onChange={(event) => setContent(event.target.value)}
          {...invalidProps(fields, "content", `${id}-content`)}
          aria-describedby={[`${id}-variables`, fields["content"] ? `${id}-content-error` : ""].filter(Boolean).join(" ")}
        />
        <FieldError fields={fields} field="content" id={`${id}-content`} />
      </div>
      <div className="knowledge-form-actions">
        <button type="submit" className="primary" disabled={pending}>
          {pending ? "Saving…" : reply ? "Save" : "Add saved reply"}
        </button>
        {onCancel && (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        )}
        <span role="status" className="muted">
          {saved}
        </span>
      </div>
      {general && (
        <p className="error" role="alert">
          {general}
        </p>
      )}
    </form>
  );
}
