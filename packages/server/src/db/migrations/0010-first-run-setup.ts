import type { Migration } from "./migration.js";

/**
 * The first run: while the deployment has no operator, each start of `serve` issues a one-time
 * setup token (24 hours) whose link creates the workspace and its first admin. Only the SHA-256
 * of a token is stored; the setup spends the one it used and drops the others.
 */
export const firstRunSetup: Migration = {
  name: "0010-first-run-setup",
  statements: [
    `CREATE TABLE setup_tokens (
      id text PRIMARY KEY,
      token_hash text NOT NULL,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      created_at timestamptz NOT NULL
    )`,
    `CREATE UNIQUE INDEX setup_tokens_hash_idx ON setup_tokens (token_hash)`,
    `CREATE INDEX setup_tokens_expires_idx ON setup_tokens (expires_at)`,
  ],
};
