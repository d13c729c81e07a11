import type { Migration } from "./migration.js";

/**
 * Curated answers ("Fix this answer" in the console): an agent's question with the right answer
 * (and an optional source URL), served directly to a later question close enough to it (see
 * console/curated/question-similarity.ts). The match is lexical on `question_normalised`, so no
 * vector is stored: it does not depend on the deployment's embedder. The answering path reads an
 * agent's curated answers by `agent_id`; the console lists them newest first.
 *
 * `messages.curated_answer_id`: the curated answer a bot reply was served from (null for any other
 * message). It is kept as a marker when the curated answer is later deleted (no foreign key).
 *
 * The knowledge gaps list reads an agent's low-confidence bot replies in a period: a partial index
 * over those replies, by conversation and time.
 */
export const curatedAnswers: Migration = {
  name: "0013-curated-answers",
  statements: [
    `CREATE TABLE curated_answers (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      agent_id text NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
      question text NOT NULL,
      question_normalised text NOT NULL,
      answer text NOT NULL,
      source_url text,
      created_by text REFERENCES operators (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX curated_answers_agent_created_idx ON curated_answers (agent_id, created_at DESC, id DESC)`,
    `CREATE INDEX curated_answers_workspace_idx ON curated_answers (workspace_id)`,
    `CREATE INDEX curated_answers_created_by_idx ON curated_answers (created_by)`,
    `ALTER TABLE messages ADD COLUMN curated_answer_id text`,
    `CREATE INDEX messages_low_confidence_bot_idx ON messages (conversation_id, created_at) WHERE role = 'bot' AND low_confidence`,
  ],
};
