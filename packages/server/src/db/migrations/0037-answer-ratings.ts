import type { Migration } from "./migration.js";

/**
 * Visitors rate bot answers, and the console reviews them (issue 31, parts 3 and 4).
 *
 * A rating is one per bot message, replaced by a repeat, so it is kept on the message's row
 * (`rating`, `rating_comment`, `rated_at`): it goes wherever the message goes (erasure, retention,
 * a deleted conversation) with no table of its own to keep in step. `answer_trace` is the compact
 * reason the answering pipeline gave for a bot answer (its deciding stage, the confidence verdict
 * and the passages it read, answering/answer-trace.ts): the review queue shows it; older answers
 * have none.
 *
 * The review queue lists a workspace's bot answers newest first: `messages_bot_created_idx` walks
 * them in that order (one page is the first rows of the walk), and `messages_rated_down_idx` those
 * rated down, the queue's main filter. The analytics' per-conversation counts read ratings through
 * messages_conversation_seq_idx, as they read the bot's replies.
 */
export const answerRatings: Migration = {
  name: "0037-answer-ratings",
  statements: [
    `ALTER TABLE messages ADD COLUMN rating text CHECK (rating IS NULL OR (rating IN ('up', 'down') AND role = 'bot'))`,
    `ALTER TABLE messages ADD COLUMN rating_comment text`,
    `ALTER TABLE messages ADD COLUMN rated_at timestamptz`,
    `ALTER TABLE messages ADD COLUMN answer_trace jsonb`,
    `CREATE INDEX messages_bot_created_idx ON messages (created_at DESC, id DESC) WHERE role = 'bot'`,
    `CREATE INDEX messages_rated_down_idx ON messages (created_at DESC, id DESC) WHERE role = 'bot' AND rating = 'down'`,
  ],
};
