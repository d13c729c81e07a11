import type { RefObject } from "react";
import { renderSavedReply, useSavedReplies, type SavedReply } from "../saved-replies/use-saved-replies.js";
import { useCaretPicker } from "./caret-picker.js";

/** `/` and what follows it up to the caret, at the start of the text or after a space. */
const SHORTCUT_BEFORE_CARET = /(?:^|\s)\/([\p{L}\p{N}_-]{0,32})$/u;
const MATCHES_SHOWN = 8;

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
 * Saved replies in the reply box: typing `/` and a shortcut opens a list of the matching replies
 * (useCaretPicker); the chosen one is inserted with its variables filled by the server.
 */
export function useSavedReplyPicker({ conversationId, content, setContent, input }: PickerOptions) {
  const replies = useSavedReplies(conversationId !== null);
  return useCaretPicker<SavedReply>({
    enabled: conversationId !== null,
    pattern: SHORTCUT_BEFORE_CARET,
    matches: (query) => matchingReplies(replies.data ?? [], query),
    keyOf: (reply) => reply.id,
    textOf: (reply) => renderSavedReply(reply.id, conversationId ?? ""),
    listLabel: "Saved replies",
    listClassName: "saved-reply-list",
    announce: (count, query) => `${count} saved ${count === 1 ? "reply matches" : "replies match"} /${query}: Up and Down to choose, Enter to insert, Escape to close.`,
    renderOption: (reply) => (
      <>
        <span className="saved-reply-shortcut">/{reply.shortcut}</span> <span className="saved-reply-title">{reply.title}</span>
        {reply.scope === "personal" && <span className="saved-reply-scope"> · yours</span>}
        <span className="saved-reply-preview">{reply.content}</span>
      </>
    ),
    insertFailed: (reason) => `The saved reply could not be inserted: ${reason}`,
    content,
    setContent,
    input,
  });
}
