import type { Migration } from "./migration.js";

/**
 * Realtime's `seq`: each conversation counts the events it broadcasts (`event_seq`, one more per
 * event). A message keeps the seq of its `message.created` (`conversation_seq`); the conversation
 * keeps the seq of its latest `conversation.updated` (`updated_seq`). A client that reconnects after
 * seq N fetches the messages above N, and the conversation's state when `updated_seq` > N.
 * Messages stored before this migration have no seq (null).
 */
export const conversationEventSeq: Migration = {
  name: "0005-conversation-event-seq",
  statements: [
    `ALTER TABLE conversations ADD COLUMN event_seq integer NOT NULL DEFAULT 0`,
    `ALTER TABLE conversations ADD COLUMN updated_seq integer`,
    `ALTER TABLE messages ADD COLUMN conversation_seq integer`,
    `CREATE UNIQUE INDEX messages_conversation_event_seq_idx ON messages (conversation_id, conversation_seq)`,
  ],
};
