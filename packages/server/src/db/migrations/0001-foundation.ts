import type { Migration } from "./migration.js";

/** Tenants, widget sessions and everything the widget API writes. Sources come in 0002. */
export const foundation: Migration = {
  name: "0001-foundation",
  statements: [
    `CREATE EXTENSION IF NOT EXISTS vector`,
    `CREATE TABLE workspaces (
      id text PRIMARY KEY,
      name text NOT NULL,
      conversation_quota integer CHECK (conversation_quota IS NULL OR conversation_quota >= 0),
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE TABLE agents (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      name text NOT NULL,
      published boolean NOT NULL DEFAULT true,
      vertical text NOT NULL DEFAULT 'general' CHECK (vertical IN ('general', 'ecommerce')),
      allowed_origins jsonb NOT NULL DEFAULT '[]',
      persona_name text NOT NULL,
      persona_tone text NOT NULL DEFAULT 'friendly',
      theme jsonb NOT NULL DEFAULT '{}',
      starter_prompts jsonb NOT NULL DEFAULT '[]',
      language_default text NOT NULL DEFAULT 'en',
      branding jsonb NOT NULL DEFAULT '{}',
      behavior_rules jsonb NOT NULL DEFAULT '[]',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX agents_workspace_idx ON agents (workspace_id)`,
    `CREATE TABLE operators (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      email text NOT NULL,
      name text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE UNIQUE INDEX operators_workspace_email_idx ON operators (workspace_id, lower(email))`,
    `CREATE TABLE visitors (
      id text PRIMARY KEY,
      agent_id text NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
      anon_id text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_seen_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE UNIQUE INDEX visitors_agent_anon_idx ON visitors (agent_id, anon_id)`,
    `CREATE TABLE conversations (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      agent_id text NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
      visitor_id text NOT NULL REFERENCES visitors (id) ON DELETE CASCADE,
      page_url text,
      human_requested_at timestamptz,
      human_request_reason text,
      bot_paused boolean NOT NULL DEFAULT false,
      satisfaction_rating text CHECK (satisfaction_rating IN ('good', 'bad')),
      satisfaction_comment text,
      satisfaction_at timestamptz,
      coupon_code text,
      coupon_applied_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_activity_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX conversations_visitor_recent_idx ON conversations (visitor_id, created_at DESC)`,
    `CREATE INDEX conversations_agent_recent_idx ON conversations (agent_id, last_activity_at DESC)`,
    `CREATE TABLE messages (
      id text PRIMARY KEY,
      seq bigint GENERATED ALWAYS AS IDENTITY,
      conversation_id text NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
      role text NOT NULL CHECK (role IN ('visitor', 'bot', 'operator', 'system')),
      content text NOT NULL,
      citations jsonb NOT NULL DEFAULT '[]',
      low_confidence boolean NOT NULL DEFAULT false,
      generator text,
      latency_ms integer,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX messages_conversation_seq_idx ON messages (conversation_id, seq DESC)`,
    `CREATE TABLE leads (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      agent_id text NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
      conversation_id text REFERENCES conversations (id) ON DELETE SET NULL,
      visitor_id text REFERENCES visitors (id) ON DELETE SET NULL,
      email text NOT NULL,
      email_normalized text NOT NULL,
      name text,
      phone text,
      fields jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE UNIQUE INDEX leads_agent_email_idx ON leads (agent_id, email_normalized)`,
    `CREATE TABLE events (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      agent_id text NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
      conversation_id text REFERENCES conversations (id) ON DELETE SET NULL,
      visitor_id text REFERENCES visitors (id) ON DELETE SET NULL,
      event text NOT NULL,
      rule_id text,
      metadata jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX events_agent_recent_idx ON events (agent_id, created_at DESC)`,
    `CREATE INDEX events_conversation_idx ON events (conversation_id)`,
    `CREATE TABLE inbox_notifications (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      operator_id text NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
      kind text NOT NULL,
      conversation_id text REFERENCES conversations (id) ON DELETE CASCADE,
      payload jsonb NOT NULL DEFAULT '{}',
      read_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX inbox_operator_recent_idx ON inbox_notifications (operator_id, created_at DESC)`,
    `CREATE TABLE api_tokens (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      name text NOT NULL,
      token_hash text NOT NULL,
      token_prefix text NOT NULL,
      abilities jsonb NOT NULL DEFAULT '[]',
      last_used_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE UNIQUE INDEX api_tokens_hash_idx ON api_tokens (token_hash)`,
    `CREATE INDEX api_tokens_workspace_idx ON api_tokens (workspace_id)`,
    `CREATE TABLE conversation_counters (
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      month date NOT NULL,
      count integer NOT NULL DEFAULT 0,
      PRIMARY KEY (workspace_id, month)
    )`,
  ],
};
