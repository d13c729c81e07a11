import type { Attachment, ConversationMessage, SystemMessageCode } from "@frontdesk/contracts";
import type { CitationChip, Outgoing } from "./widget-api-client.js";

export type ChatRole = "visitor" | "bot" | "operator" | "system";

export interface ChatMessage {
  key: string;
  /** The stored message's id, once known (dedupes what the realtime channel and the catch-up send). */
  id?: string;
  /** The stored message's place in the conversation (the order the chat shows; null: stored before seqs). */
  seq?: number | null;
  /** The operator who wrote it (or who joined: a system message), by name. */
  author?: string | null;
  role: ChatRole;
  content: string;
  /** A system message's stable code (system-messages.ts shows it in the visitor's language). */
  code?: SystemMessageCode | null;
  citations: CitationChip[];
  /** The files sent with it (images, PDFs). */
  files?: Attachment[] | undefined;
  /** The answer is still arriving. */
  streaming: boolean;
  lowConfidence: boolean;
  /** The visitor's 👍 (`up`) or 👎 (`down`) on a bot answer, as shown (sent at once, undone if refused). */
  rating?: "up" | "down" | undefined;
  /** The visitor's message was not delivered (the service unreachable, or refusing it): "Not sent", with "Try again". */
  unsent?: boolean;
  /** The visitor's message until it is delivered: what is sent again, kept in the outbox across reloads. */
  out?: Outgoing;
}

/** A stored message of the conversation as the chat shows it. */
export const chatMessageOf = (message: ConversationMessage, key: string): ChatMessage => ({
  key,
  id: message.id,
  seq: message.seq,
  role: message.role,
  content: message.content,
  code: message.code,
  citations: message.citations,
  files: message.attachments,
  author: message.author?.name ?? null,
  streaming: false,
  lowConfidence: false,
});

/**
 * Puts `message` in its place among `messages`: before the first message with a greater seq or not
 * stored yet (the visitor's outbox stays last), so a live message that came before an older one the
 * catch-up fetched stays below it. Messages without a seq (the answer streaming) keep their place.
 */
export function insertBySeq(messages: ChatMessage[], message: ChatMessage): void {
  const at = messages.findIndex((shown) => (shown.seq == null ? shown.out : shown.seq > (message.seq ?? 0)));
  messages.splice(at < 0 ? messages.length : at, 0, message);
}
