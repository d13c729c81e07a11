import { useEffect, useId, useState, type KeyboardEvent, type RefObject } from "react";
import { describeError } from "../api/client.js";
import { renderSavedReply, useSavedReplies, type SavedReply } from "../saved-replies/use-saved-replies.js";

/** `/` and what follows it up to the caret, at the start of the text or after a space. */
const SHORTCUT_BEFORE_CARET = /(?:^|\s)\/([\p{L}\p{N}_-]{0,32})$/u;
const MATCHES_SHOWN = 8;

/** The `/shortcut` being typed where the caret is: where its `/` is, and what follows it. */
export function shortcutAt(text: string, caret: number): { start: number; query: string } | null {
  const match = SHORTCUT_BEFORE_CARET.exec(text.slice(0, caret));
  if (!match) return null;
  const query = match[1] ?? "";
  return { start: caret - query.length - 1, query };
}

/** Replies whose shortcut starts with the query, then those whose title contains it. */
export function matchingReplies(replies: readonly SavedReply[], query: string): SavedReply[] {
  const wanted = query.toLowerCase();
  const byShortcut = replies.filter((reply) => reply.shortcut.startsWith(wanted));
  const byTitle = replies.filter((reply) => !byShortcut.includes(reply) && wanted !== "" && reply.title.toLowerCase().includes(wanted));
  return [...byShortcut, ...byTitle].slice(0, MATCHES_SHOWN);
}

interface PickerOptions {
  /** The conversation whose visitor and agent fill the variables; none: no picker. */
  conversationId: string | null;
  content: string;
  setContent(content: string): void;
  input: RefObject<HTMLTextAreaElement | null>;
}

/**
 * Saved replies in the reply box: typing `/` and a shortcut opens a listbox of the matching
 * replies; Up and Down move through them, Enter (or Tab) inserts the chosen one with its variables
 * filled by the server, Escape closes the list. The textarea keeps its own role (ARIA in HTML
 * allows none other on a textarea, and `aria-expanded` is not a textbox's), so the combobox
 * pattern is carried by what a textbox may hold: `aria-autocomplete="list"`, `aria-controls` the
 * listbox, `aria-activedescendant` the option; a polite status says when the list opens and how
 * to use it.
 */
export function useSavedReplyPicker({ conversationId, content, setContent, input }: PickerOptions) {
  const listId = useId();
  const replies = useSavedReplies(conversationId !== null);
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const [inserting, setInserting] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [caretAfterInsert, setCaretAfterInsert] = useState<number | null>(null);

  const token = conversationId === null ? null : shortcutAt(content, caret);
  const matches = token ? matchingReplies(replies.data ?? [], token.query) : [];
  const open = token !== null && dismissedAt !== token.start && matches.length > 0 && !inserting;
  const activeIndex = Math.min(active, Math.max(matches.length - 1, 0));

  useEffect(() => setActive(0), [token?.query, token?.start]);
  useEffect(() => {
    if (token === null) setDismissedAt(null);
  }, [token === null]);
  useEffect(() => {
    if (caretAfterInsert === null) return;
    input.current?.setSelectionRange(caretAfterInsert, caretAfterInsert);
    setCaret(caretAfterInsert);
    setCaretAfterInsert(null);
  }, [caretAfterInsert]);

  const track = () => setCaret(input.current?.selectionStart ?? content.length);

  const choose = async (reply: SavedReply) => {
    if (!token || conversationId === null) return;
    setInserting(true);
    setProblem(null);
    try {
      const text = await renderSavedReply(reply.id, conversationId);
      const next = content.slice(0, token.start) + text + content.slice(caret);
      setContent(next);
      setCaretAfterInsert(token.start + text.length);
    } catch (failure) {
      setProblem(`The saved reply could not be inserted: ${describeError(failure)}`);
    } finally {
      setInserting(false);
      input.current?.focus();
    }
  };

  /** Handles the listbox's keys while it is open; true when the key was the picker's. */
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open) return false;
    switch (event.key) {
      case "ArrowDown":
        setActive((activeIndex + 1) % matches.length);
        break;
      case "ArrowUp":
        setActive((activeIndex - 1 + matches.length) % matches.length);
        break;
      case "Enter":
      case "Tab":
        void choose(matches[activeIndex]!);
        break;
      case "Escape":
        setDismissedAt(token.start);
        break;
      default:
        return false;
    }
    event.preventDefault();
    return true;
  };

  const optionId = (index: number) => `${listId}-option-${index}`;
  const inputProps = {
    "aria-autocomplete": "list" as const,
    "aria-controls": open ? listId : undefined,
    "aria-activedescendant": open ? optionId(activeIndex) : undefined,
    onKeyUp: track,
    onClick: track,
    onSelect: track,
  };
  const status = open
    ? `${matches.length} saved ${matches.length === 1 ? "reply matches" : "replies match"} /${token.query}: Up and Down to choose, Enter to insert, Escape to close.`
    : (problem ?? "");

  const popup = (
    <>
      {open && (
        <ul id={listId} role="listbox" aria-label="Saved replies" className="saved-reply-list">
          {matches.map((reply, index) => (
            <li
              key={reply.id}
              id={optionId(index)}
              role="option"
              aria-selected={index === activeIndex}
              className={index === activeIndex ? "active" : undefined}
              onMouseDown={(event) => {
                // Keep the focus in the textarea: the choice is made on the option, the typing goes on there.
                event.preventDefault();
                void choose(reply);
              }}>
              <span className="saved-reply-shortcut">/{reply.shortcut}</span> <span className="saved-reply-title">{reply.title}</span>
              {reply.scope === "personal" && <span className="saved-reply-scope"> · yours</span>}
              <span className="saved-reply-preview">{reply.content}</span>
            </li>
          ))}
        </ul>
      )}
      {/* A live region without the status role: the console's one `status` is its connection. */}
      <p aria-live="polite" className={problem && !open ? "error" : "visually-hidden"}>
        {status}
      </p>
    </>
  );
  return { onKeyDown, inputProps, popup, track };
}
