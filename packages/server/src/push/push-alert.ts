import { createHash } from "node:crypto";
import type { PushAlert } from "@frontdesk/contracts";

/** The longest visitor's reason an alert carries (a notification shows a few lines). */
const REASON_CHARACTERS = 240;

/**
 * The alert of a human request as a device receives it: the visitor's reason, kept as text and
 * cut, or a plain sentence; the conversation's address in the console; one tag per conversation.
 */
export function humanRequestAlert(conversation: { id: string; reason: string | null }, publicUrl: string): PushAlert {
  const reason = conversation.reason?.replace(/\s+/g, " ").trim() ?? "";
  return {
    kind: "human_requested",
    title: "A visitor is waiting for a person",
    body: reason === "" ? "A visitor asked for a person" : reason.length > REASON_CHARACTERS ? `${reason.slice(0, REASON_CHARACTERS - 1)}…` : reason,
    url: `${publicUrl}/console/inbox/${encodeURIComponent(conversation.id)}`,
    conversation_id: conversation.id,
    tag: `conversation-${conversation.id}`,
  };
}

/** The push service's `Topic` of a conversation's alerts (base64url, at most 32 characters): a newer alert replaces an undelivered older one. */
export function conversationTopic(conversationId: string): string {
  return createHash("sha256").update(conversationId).digest("base64url").slice(0, 32);
}

/** The alert of a mention in a note: who wrote it and the note's first words, the conversation's address, one tag per note. */
export function mentionAlert(note: { id: string; conversationId: string; authorName: string; content: string }, publicUrl: string): PushAlert {
  const text = note.content.replace(/\s+/g, " ").trim();
  return {
    kind: "note_mentioned",
    title: `${note.authorName} mentioned you in a note`,
    body: text.length > REASON_CHARACTERS ? `${text.slice(0, REASON_CHARACTERS - 1)}…` : text,
    url: `${publicUrl}/console/inbox/${encodeURIComponent(note.conversationId)}`,
    conversation_id: note.conversationId,
    tag: `note-${note.id}`,
  };
}
