import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { ApiError, describeError } from "../api/client.js";
import { useSavedReplyPicker } from "./saved-reply-picker.js";
import { ReplyAttachments, useReplyAttachments } from "./attachments.js";

/** A key for one reply (128 random bits, hex): crypto.getRandomValues works on plain HTTP too, where randomUUID does not. */
function newReplyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

interface ReplyBoxProps {
  /** Sends the reply with its Idempotency-Key: the same key when the same reply is sent again after a failure. */
  onSend(content: string, attachmentIds: string[] | undefined, idempotencyKey: string): Promise<unknown>;
  onKeystroke(): void;
  onStopTyping(): void;
  sending: boolean;
  /** Take the focus when this turns true (the operator's take-over succeeded; the box may already be shown by the live state change). */
  focusOnShow: boolean;
  /** Why this operator cannot reply now (another operator has the conversation): the box is disabled and says so. */
  disabledReason?: string | null;
  /** The conversation: typing `/` and a shortcut inserts a saved reply filled for it; files are uploaded to it (sent with the reply: `attachmentIds`). */
  conversationId?: string | null;
  /** Take the focus each time this changes (the `r` shortcut). */
  focusRequest?: number;
}

/**
 * The operator's reply: Enter sends, Shift+Enter starts a new line. With a `disabledReason` (the
 * server would refuse the reply: 409 `not_assignee`) it is disabled and the reason is its description.
 * `/shortcut` opens the saved replies (saved-reply-picker.tsx); Escape leaves the box. A reply that
 * failed (the network dropped, perhaps after the service stored it) and is sent again unchanged goes
 * with the same Idempotency-Key, so the visitor gets it once; a changed reply gets a new key.
 */
export function ReplyBox({ onSend, onKeystroke, onStopTyping, sending, focusOnShow, disabledReason = null, conversationId = null, focusRequest = 0 }: ReplyBoxProps) {
  const [content, setContent] = useState("");
  const files = useReplyAttachments(conversationId);
  const [error, setError] = useState<string | null>(null);
  /** The reply being sent or last failed, with its key. */
  const attempt = useRef<{ request: string; key: string } | null>(null);
  const inputId = useId();
  const reasonId = useId();
  const disabled = disabledReason !== null;
  const input = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (focusOnShow) input.current?.focus();
  }, [focusOnShow]);
  useEffect(() => {
    if (focusRequest > 0) input.current?.focus();
  }, [focusRequest]);
  const picker = useSavedReplyPicker({
    conversationId: disabledReason === null ? conversationId : null,
    content,
    setContent: (next) => {
      setContent(next);
      onKeystroke();
    },
    input,
  });
  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    const text = content.trim();
    if ((!text && files.ready.length === 0) || files.uploading || sending || disabled) return;
    setError(null);
    onStopTyping();
    const attachmentIds = files.ready.length > 0 ? files.ready.map((file) => file.id) : undefined;
    const request = JSON.stringify([text, attachmentIds ?? []]);
    if (attempt.current?.request !== request) attempt.current = { request, key: newReplyKey() };
    try {
      await onSend(text, attachmentIds, attempt.current.key);
      attempt.current = null;
      setContent("");
      files.clear();
    } catch (failure) {
      // No answer came (tried twice, see use-conversation-actions.ts): the reply may have been stored.
      setError(failure instanceof ApiError && failure.status === 0 ? "No answer from the service. Send again: the visitor gets the reply once." : describeError(failure));
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (picker.onKeyDown(event)) return;
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) void submit(event);
    else if (event.key === "Escape") event.currentTarget.blur();
  };
  return (
    <form className="reply-box" onSubmit={(event) => void submit(event)}>
      <label htmlFor={inputId} className="visually-hidden">
        Reply to the visitor
      </label>
      {disabled && (
        <p id={reasonId} className="composer-note reply-disabled-reason">
          {disabledReason}
        </p>
      )}
      <textarea
        id={inputId}
        value={content}
        rows={3}
        ref={input}
        placeholder={disabled ? "" : "Write a reply… (Enter sends, Shift+Enter for a new line, / for saved replies)"}
        disabled={disabled}
        aria-describedby={disabled ? reasonId : undefined}
        {...picker.inputProps}
        onChange={(event) => {
          setContent(event.target.value);
          picker.track();
          onKeystroke();
        }}
        onBlur={onStopTyping}
        onKeyDown={onKeyDown}
      />
      {picker.popup}
      <div className="reply-actions">
        <ReplyAttachments state={files} disabled={disabled} />
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={disabled || sending || files.uploading || (content.trim() === "" && files.ready.length === 0)}>
          Send
        </button>
      </div>
    </form>
  );
}
