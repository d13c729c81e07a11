import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { describeError } from "../api/client.js";

interface ReplyBoxProps {
  onSend(content: string): Promise<unknown>;
  onKeystroke(): void;
  onStopTyping(): void;
  sending: boolean;
  /** Take the focus when this turns true (the operator's take-over succeeded; the box may already be shown by the live state change). */
  focusOnShow: boolean;
}

/** The operator's reply: Enter sends, Shift+Enter starts a new line. */
export function ReplyBox({ onSend, onKeystroke, onStopTyping, sending, focusOnShow }: ReplyBoxProps) {
  const [content, setContent] = useState("");
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const input = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (focusOnShow) input.current?.focus();
  }, [focusOnShow]);
  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    const text = content.trim();
    if (!text || sending) return;
    setError(null);
    onStopTyping();
    try {
      await onSend(text);
      setContent("");
    } catch (failure) {
      setError(describeError(failure));
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) void submit(event);
  };
  return (
    <form className="reply-box" onSubmit={(event) => void submit(event)}>
      <label htmlFor={inputId} className="visually-hidden">
        Reply to the visitor
      </label>
      <textarea
        id={inputId}
        value={content}
        rows={3}
        ref={input}
        placeholder="Write a reply… (Enter sends, Shift+Enter for a new line)"
        onChange={(event) => {
          setContent(event.target.value);
          onKeystroke();
        }}
        onBlur={onStopTyping}
        onKeyDown={onKeyDown}
      />
      <div className="reply-actions">
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={sending || content.trim() === ""}>
          Send
        </button>
      </div>
    </form>
  );
}
