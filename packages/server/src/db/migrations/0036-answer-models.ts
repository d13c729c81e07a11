import type { Migration } from "./migration.js";

/**
 * The answer model a workspace's admins choose (issue 31, item 1; src/tenants/): one row per
 * workspace with its provider, base URL, model and API key sealed (AES-256-GCM under a key derived
 * from the service's secret, the workspace's id as associated data; its last 4 characters kept
 * apart to be shown). `revision` comes from a sequence on every write, so a delete and a new row
 * never share one: a process caching a workspace's generator compares it with the revision read
 * with the agent (the join in `findAgentWithQuota`, by the primary key) and builds it again.
 * Each agent's `answer_model` (`default`, `extractive` or a model name) and `instructions`
 * (`{rules, length, when_unsure}`); every agent before this migration answers as it did.
 */
export const answerModels: Migration = {
  name: "0036-answer-models",
  statements: [
    `CREATE SEQUENCE workspace_model_provider_revisions`,
    `CREATE TABLE workspace_model_providers (
      workspace_id text PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
      provider text NOT NULL CHECK (provider IN ('openai', 'anthropic', 'openai-compatible')),
      base_url text,
      model text NOT NULL,
      api_key_sealed text,
      api_key_last4 text,
      revision bigint NOT NULL DEFAULT nextval('workspace_model_provider_revisions'),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    `ALTER TABLE agents ADD COLUMN answer_model text NOT NULL DEFAULT 'default'`,
    `ALTER TABLE agents ADD COLUMN instructions jsonb NOT NULL DEFAULT '{"rules": "", "length": "medium", "when_unsure": "offer_person"}'::jsonb`,
  ],
};
