import type { Migration } from "./migration.js";

/**
 * An invitation no longer tells an admin whether its e-mail belongs to an operator of another
 * workspace (issue 28). An e-mail is unique among accounts, the operators who have set a password
 * (signing in names no workspace, so the e-mail alone must find one), and within a workspace; an
 * invitation not yet accepted may share it with another workspace's account or invitation. The
 * first to set a password holds the address; accepting a later one answers 409 `email_taken`.
 */
export const invitedOperatorEmails: Migration = {
  name: "0025-invited-operator-emails",
  statements: [
    `DROP INDEX operators_email_idx`,
    `CREATE UNIQUE INDEX operators_account_email_idx ON operators (lower(email)) WHERE password_hash IS NOT NULL`,
    `CREATE UNIQUE INDEX operators_workspace_email_idx ON operators (workspace_id, lower(email))`,
  ],
};
