import type { Migration } from "./migration.js";

/**
 * Answer tests (issue 31 part 5, src/answer-tests/). `answer_tests`: an agent's test questions, each
 * with what a right answer must do; one made from a visitor's message keeps that visitor's id, so
 * that their erasure deletes it. `answer_test_runs`: one run of an agent's tests; at most one is
 * `queued` per agent (the partial unique index), which is how a burst of changes becomes one run.
 * `answer_test_results`: each test's outcome in a run, deleted with its run or its test.
 * The outbox gains the kind of the regression alert.
 */
export const answerTests: Migration = {
  name: "0038-answer-tests",
  statements: [
    `CREATE TABLE answer_tests (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      agent_id text NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
      question text NOT NULL,
      expect_kind text NOT NULL CHECK (expect_kind IN ('url', 'text', 'unsure')),
      expect_value text,
      origin text NOT NULL CHECK (origin IN ('console', 'curated', 'message', 'csv', 'cli')),
      origin_visitor_id text,
      created_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((expect_kind = 'unsure') = (expect_value IS NULL))
    )`,
    `CREATE INDEX answer_tests_agent_idx ON answer_tests (agent_id, created_at, id)`,
    `CREATE INDEX answer_tests_visitor_idx ON answer_tests (workspace_id, origin_visitor_id) WHERE origin_visitor_id IS NOT NULL`,
    `CREATE TABLE answer_test_runs (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      agent_id text NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
      status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
      trigger text NOT NULL CHECK (trigger IN ('manual', 'cli', 'knowledge', 'curated', 'answering')),
      total integer NOT NULL DEFAULT 0,
      passed integer NOT NULL DEFAULT 0,
      failed integer NOT NULL DEFAULT 0,
      regressed integer NOT NULL DEFAULT 0,
      error text,
      queued_at timestamptz NOT NULL DEFAULT now(),
      started_at timestamptz,
      finished_at timestamptz
    )`,
    `CREATE UNIQUE INDEX answer_test_runs_one_queued_idx ON answer_test_runs (agent_id) WHERE status = 'queued'`,
    `CREATE INDEX answer_test_runs_agent_idx ON answer_test_runs (agent_id, queued_at DESC, id DESC)`,
    `CREATE INDEX answer_test_runs_finished_idx ON answer_test_runs (agent_id, finished_at DESC, id DESC) WHERE status = 'done'`,
    `CREATE INDEX answer_test_runs_running_idx ON answer_test_runs (agent_id, started_at) WHERE status = 'running'`,
    `CREATE TABLE answer_test_results (
      run_id text NOT NULL REFERENCES answer_test_runs (id) ON DELETE CASCADE,
      test_id text NOT NULL REFERENCES answer_tests (id) ON DELETE CASCADE,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      passed boolean NOT NULL,
      reason text NOT NULL,
      regressed boolean NOT NULL DEFAULT false,
      answer text NOT NULL,
      citations jsonb NOT NULL DEFAULT '[]',
      low_confidence boolean NOT NULL,
      PRIMARY KEY (run_id, test_id)
    )`,
    `CREATE INDEX answer_test_results_test_idx ON answer_test_results (test_id)`,
    `ALTER TABLE mail_messages DROP CONSTRAINT mail_messages_kind_check`,
    `ALTER TABLE mail_messages ADD CONSTRAINT mail_messages_kind_check
      CHECK (kind IN ('operator_alert', 'operator_unseen', 'operator_digest', 'visitor_reply', 'transcript', 'answer_tests_regressed'))`,
  ],
};
