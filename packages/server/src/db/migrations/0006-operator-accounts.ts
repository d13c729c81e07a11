import type { Migration } from "./migration.js";

/**
 * Operators sign in to the console. Each has a role (`admin` or `agent`; operators made before
 * roles existed become admins, since only an admin could have made them), a password hash
 * (scrypt, see hash-password.ts), one-time set-password tokens and server-side sessions; of a
 * token or a session only the SHA-256 of its secret is stored. E-mails become unique across the
 * deployment (not only per workspace), because signing in names no workspace: a deployment whose
 * workspaces share an operator e-mail stops here with the duplicated key, to be renamed first.
 */
export const operatorAccounts: Migration = {
  name: "0006-operator-accounts",
  statements: [
    `ALTER TABLE operators ADD COLUMN role text NOT NULL DEFAULT 'admin' CHECK (role IN ('admin', 'agent'))`,
    `ALTER TABLE operators ALTER COLUMN role DROP DEFAULT`,
    `ALTER TABLE operators ADD COLUMN password_hash text`,
    `ALTER TABLE operators ADD COLUMN password_changed_at timestamptz`,
    `DROP INDEX operators_workspace_email_idx`,
    `CREATE UNIQUE INDEX operators_email_idx ON operators (lower(email))`,
    `CREATE TABLE operator_password_tokens (
      id text PRIMARY KEY,
      operator_id text NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
      token_hash text NOT NULL,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE UNIQUE INDEX operator_password_tokens_hash_idx ON operator_password_tokens (token_hash)`,
    `CREATE INDEX operator_password_tokens_operator_idx ON operator_password_tokens (operator_id)`,
    `CREATE TABLE operator_sessions (
      id text PRIMARY KEY,
      operator_id text NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
      token_hash text NOT NULL,
      created_at timestamptz NOT NULL,
      last_seen_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL
    )`,
    `CREATE UNIQUE INDEX operator_sessions_hash_idx ON operator_sessions (token_hash)`,
    `CREATE INDEX operator_sessions_operator_idx ON operator_sessions (operator_id)`,
  ],
};
