import type { Migration } from "./migration.js";

/**
 * Operators' single sign-on with OpenID Connect (issue 34, part 2): a workspace's provider
 * (`workspace_sso`: its issuer, client id, client secret sealed with the workspace's id as
 * associated data, the e-mail domains whose operators it may sign in and create, their role, and
 * whether password sign-in stays on). A console session started by the provider keeps the ID token
 * (sealed) for the provider's sign-out (`operator_sessions.sso_id_token_sealed`). Query paths: a
 * workspace's provider by its primary key; the provider of an e-mail domain by
 * `workspace_sso_domains_idx` (a GIN index on the domains).
 */
export const workspaceSingleSignOn: Migration = {
  name: "0049-workspace-single-sign-on",
  statements: [
    `CREATE TABLE workspace_sso (
      workspace_id text PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
      display_name text NOT NULL,
      issuer text NOT NULL,
      client_id text NOT NULL,
      client_secret_sealed text,
      allowed_domains text[] NOT NULL,
      default_role text NOT NULL DEFAULT 'agent' CHECK (default_role IN ('admin', 'agent')),
      password_sign_in boolean NOT NULL DEFAULT true,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX workspace_sso_domains_idx ON workspace_sso USING gin (allowed_domains)`,
    `ALTER TABLE operator_sessions ADD COLUMN sso_id_token_sealed text`,
  ],
};
