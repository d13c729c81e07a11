import type { Migration } from "./migration.js";

/**
 * Verified visitor identity (issue 34 §1). Each agent may hold an identity secret (sealed with
 * auth/secret-box.ts, the agent's id as associated data; never returned after its creation) and an
 * identity mode: `off` (init ignores identities), `optional` (anonymous visitors allowed, a claimed
 * id must verify) or `required` (init needs a verified id). A visitor the site vouched for carries
 * the site's `user_id`, with the e-mail and name sent along with it; `visitors_agent_user_idx`
 * finds an agent's visitor by that id (init's upsert, erasure and export by user id), so a user
 * has one visitor per agent on every browser.
 */
export const visitorIdentity: Migration = {
  name: "0047-visitor-identity",
  statements: [
    `ALTER TABLE agents ADD COLUMN identity_mode text NOT NULL DEFAULT 'off' CHECK (identity_mode IN ('off', 'optional', 'required'))`,
    `ALTER TABLE agents ADD COLUMN identity_secret_sealed text`,
    `ALTER TABLE agents ADD COLUMN identity_secret_created_at timestamptz`,
    `ALTER TABLE visitors ADD COLUMN user_id text`,
    `ALTER TABLE visitors ADD COLUMN user_email text`,
    `ALTER TABLE visitors ADD COLUMN user_name text`,
    `ALTER TABLE visitors ADD COLUMN user_verified_at timestamptz`,
    `CREATE UNIQUE INDEX visitors_agent_user_idx ON visitors (agent_id, user_id) WHERE user_id IS NOT NULL`,
  ],
};
