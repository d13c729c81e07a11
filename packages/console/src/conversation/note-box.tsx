import { forwardRef, useId, useImperativeHandle, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { describeError } from "../api/client.js";
import { useMentionPicker } from "./mention-picker.js";

interface NoteBoxProps {
  onAdd(content: string): Promise<unknown>;
  adding: boolean;
}

/**
 * An internal note: for the team only, never sent to the visitor. Enter adds it, Shift+Enter
 * starts a new line, Escape leaves the box (the keyboard shortcuts work again). `@Name` mentions
 * a colleague, who is notified; typing `@` offers the colleagues by name (useMentionPicker).
 */
export const NoteBox = forwardRef<HTMLTextAreaElement | null, NoteBoxProps>(function NoteBox({ onAdd, adding }, forwarded) {
  const [content, setContent] = useState("");
  const input = useRef<HTMLTextAreaElement>(null);
  useImperativeHandle(forwarded, () => input.current as HTMLTextAreaElement, []);
  const picker = useMentionPicker({ content, setContent, input });
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const hintId = useId();
  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    const text = content.trim();
    if (!text || adding) return;
    setError(null);
    try {
      await onAdd(text);
      setContent("");
    } catch (failure) {
      setError(describeError(failure));
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (picker.onKeyDown(event)) return;
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) void submit(event);
    else if (event.key === "Escape") event.currentTarget.blur();
  };
  return (
    <form className="reply-box note-box" onSubmit={(event) => void submit(event)}>
      <label htmlFor={inputId} className="visually-hidden">
        Internal note for the team
      </label>
      <p id={hintId} className="note-box-hint">
        <svg className="lock-icon" viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false">
          <path d="M4 7V5a4 4 0 1 1 8 0v2h1v8H3V7h1zm2 0h4V5a2 2 0 1 0-4 0v2z" fill="currentColor" />
        </svg> Only your team sees notes. Write @Name to notify a colleague.
      </p>
      <textarea
        id={inputId}
        ref={input}
        value={content}
        rows={3}
        aria-describedby={hintId}
        {...picker.inputProps}
        placeholder="Write a note for the team… (Enter adds it, Shift+Enter for a new line)"
        onChange={(event) => {
          setContent(event.target.value);
          picker.track();
        }}
        onKeyDown={onKeyDown}
      />
      {picker.popup}
      <div className="reply-actions">
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" className="primary note-button" disabled={adding || content.trim() === ""}>
          Add note
        </button>
      </div>
    </form>
  );
});
