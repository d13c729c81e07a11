import type { Migration } from "./migration.js";

/**
 * The catch-up read (`?after_seq=N` of the widget and the console, conversations/
 * message-listing-repository.ts) in its own order: a conversation's messages by `conversation_seq`
 * with the uncounted ones (null, stored before 0005) first, then by insertion. The scan starts
 * after N and stops at the page's end; messages_conversation_event_seq_idx (nulls last) needed a
 * sort of everything above N.
 */
export const messageCatchUpIndex: Migration = {
  name: "0012-message-catch-up-index",
  statements: [`CREATE INDEX messages_conversation_catch_up_idx ON messages (conversation_id, conversation_seq NULLS FIRST, seq)`],
};
