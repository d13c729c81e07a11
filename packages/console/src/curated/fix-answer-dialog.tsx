import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { FieldError, fieldErrorsOf, invalidProps } from "../agents/field-errors.js";
import { describeError } from "../api/client.js";
import { useCuratedAnswerMutations, type CuratedAnswer } from "./use-curated-answers.js";
import "./curated.css";

/** What the dialog writes: a new curated answer for a bot reply or an agent's question, or a change to one. */
export type CuratedDraft =
  | { kind: "message"; messageId: string; question: string; answer: string }
  | { kind: "question"; agentId: string; question: string }
  | { kind: "edit"; curated: CuratedAnswer };

const FIELDS = ["question", "answer", "source_url"] as const;

/**
 * The curated answer's form in a modal <dialog> (the browser keeps the focus inside and the page
 * behind inert; Escape closes; the opener gets the focus back, see useDialogOpener). The server's
 * 422 `fields` show beside their controls, any other refusal (an `agent` role's 403) under them.
 */
export function FixAnswerDialog({ draft, onClose }: { draft: CuratedDraft; onClose: (saved: CuratedAnswer | null) => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const answerField = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  const { create, update } = useCuratedAnswerMutations();
  const mutation = draft.kind === "edit" ? update : create;
  const [question, setQuestion] = useState(draft.kind === "edit" ? draft.curated.question : draft.question);
  const [answer, setAnswer] = useState(draft.kind === "edit" ? draft.curated.answer : "");
  const [sourceUrl, setSourceUrl] = useState(draft.kind === "edit" ? (draft.curated.source_url ?? "") : "");
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    // The operator writes the answer: showModal focused the first field, the answer takes it.
    answerField.current?.focus();
    return () => element?.close();
  }, []);

  const fields = fieldErrorsOf(mutation.error);
  // What no control shows (a refusal, a 422 about another member) is said under the form.
  const elsewhere = Object.entries(fields).filter(([name]) => !FIELDS.some((field) => name === field || name.startsWith(`${field}.`)));
  const shownBeside = Object.keys(fields).length > elsewhere.length;
  const generalError =
    mutation.error && (!shownBeside || elsewhere.length > 0)
      ? [describeError(mutation.error), ...elsewhere.map(([name, messages]) => `${name}: ${messages.join("; ")}`)].join(" ")
      : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const url = sourceUrl.trim();
    const onSuccess = (saved: CuratedAnswer) => onClose(saved);
    if (draft.kind === "edit") {
      update.mutate({ id: draft.curated.id, body: { question, answer, source_url: url === "" ? null : url } }, { onSuccess });
    } else {
      // From a reply whose question is not shown (an earlier page), the server finds it.
      const target = draft.kind === "message" ? { message_id: draft.messageId, ...(question.trim() === "" ? {} : { question }) } : { agent_id: draft.agentId, question };
      create.mutate({ ...target, answer, ...(url === "" ? {} : { source_url: url }) }, { onSuccess });
    }
  };
  const title = draft.kind === "edit" ? "Edit the curated answer" : draft.kind === "message" ? "Fix this answer" : "Answer it";

  return (
    <dialog
      ref={dialog}
      className="curated-dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-intro`}
      onCancel={(event) => {
        event.preventDefault();
        onClose(null);
      }}
      onKeyDown={keepFocusInside}>
      <form onSubmit={submit} noValidate>
        <h2 id={`${id}-title`}>{title}</h2>
        <p id={`${id}-intro`} className="muted">
          A visitor question close enough to this one gets your answer directly, marked as curated.
        </p>
        {draft.kind === "message" && draft.answer && (
          <div className="curated-previous">
            <span className="curated-label">The assistant answered</span>
            <blockquote>{draft.answer}</blockquote>
          </div>
        )}
        <div className="curated-field">
          <label htmlFor={`${id}-question`}>Visitor question</label>
          <input id={`${id}-question`} value={question} maxLength={1000} onChange={(event) => setQuestion(event.target.value)} {...invalidProps(fields, "question", `${id}-question`)} />
          <FieldError fields={fields} field="question" id={`${id}-question`} />
        </div>
        <div className="curated-field">
          <label htmlFor={`${id}-answer`}>Right answer</label>
          <textarea id={`${id}-answer`} ref={answerField} rows={5} value={answer} onChange={(event) => setAnswer(event.target.value)} {...invalidProps(fields, "answer", `${id}-answer`)} />
          <FieldError fields={fields} field="answer" id={`${id}-answer`} />
        </div>
        <div className="curated-field">
          <label htmlFor={`${id}-source`}>Source URL (optional)</label>
          <input
            id={`${id}-source`}
            type="url"
            inputMode="url"
            placeholder="https://"
            value={sourceUrl}
            onChange={(event) => setSourceUrl(event.target.value)}
            {...invalidProps(fields, "source_url", `${id}-source`)}
          />
          <FieldError fields={fields} field="source_url" id={`${id}-source`} />
        </div>
        {generalError && (
          <p className="error" role="alert">
            {generalError}
          </p>
        )}
        <div className="curated-dialog-actions">
          <button type="button" onClick={() => onClose(null)}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={mutation.isPending}>
            {mutation.isPending ? "Saving…" : "Save answer"}
          </button>
        </div>
      </form>
    </dialog>
  );
}

/**
 * Tab from the dialog's last control goes to its first, Shift+Tab from the first to the last: a
 * modal <dialog> makes the page behind inert, but Tab would still leave it for the browser's own UI.
 */
function keepFocusInside(event: KeyboardEvent<HTMLDialogElement>): void {
  if (event.key !== "Tab") return;
  const focusable = [...event.currentTarget.querySelectorAll<HTMLElement>("input, textarea, select, button, a[href]")].filter(
    (element) => !element.hasAttribute("disabled") && element.tabIndex >= 0,
  );
  const first = focusable[0];
  const last = focusable.at(-1);
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * The open/closed state of a dialog opened by a button: on close the focus returns to that button
 * (the browser does it only when the <dialog> element stays in the page; ours is unmounted).
 */
export function useDialogOpener<T>() {
  const [open, setOpen] = useState<T | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  return {
    open,
    show(value: T, from: HTMLElement) {
      opener.current = from;
      setOpen(value);
    },
    close() {
      setOpen(null);
      const element = opener.current;
      window.requestAnimationFrame(() => element?.isConnected && element.focus());
    },
  };
}
