import type { Migration } from "./migration.js";

/**
 * Two-factor sign-in with TOTP (issue 34, part 3). An operator's authenticator secret is sealed
 * (auth/secret-box.ts, the operator's id as associated data): `totp_pending_secret_sealed` while
 * being enrolled, `totp_secret_sealed` once a code confirmed it. `totp_last_time_step` is the
 * 30-second step of the last code accepted, so that code is never accepted again (replay).
 * `operator_recovery_codes` holds ten SHA-256 hashes of single-use codes per operator. A workspace
 * may require two-factor sign-in of all its operators (`workspaces.require_two_factor`). Query
 * paths: an operator's codes by `operator_recovery_codes_operator_idx` (and its cascade); the rest
 * by primary keys.
 */
export const operatorTwoFactor: Migration = {
  name: "0048-operator-two-factor",
  statements: [
    `ALTER TABLE operators ADD COLUMN totp_secret_sealed text`,
    `ALTER TABLE operators ADD COLUMN totp_pending_secret_sealed text`,
    `ALTER TABLE operators ADD COLUMN totp_enabled_at timestamptz`,
    `ALTER TABLE operators ADD COLUMN totp_last_time_step bigint`,
    `ALTER TABLE workspaces ADD COLUMN require_two_factor boolean NOT NULL DEFAULT false`,
    `CREATE TABLE operator_recovery_codes (
      id text PRIMARY KEY,
      operator_id text NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
      code_hash text NOT NULL,
      used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX operator_recovery_codes_operator_idx ON operator_recovery_codes (operator_id, code_hash)`,
  ],
};
