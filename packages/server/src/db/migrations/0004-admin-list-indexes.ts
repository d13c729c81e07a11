import type { Migration } from "./migration.js";

/**
 * The admin CLI's lists (`workspace list`, `agent list`, `operator list`, `token list`,
 * `source list`) read in creation order, each from an index that holds that order, so a list
 * never sorts or scans the whole table. The agents' and tokens' workspace indexes are replaced by
 * wider ones that still serve every lookup by workspace.
 */
export const adminListIndexes: Migration = {
  name: "0004-admin-list-indexes",
  statements: [
    `CREATE INDEX workspaces_created_idx ON workspaces (created_at, id)`,
    `DROP INDEX agents_workspace_idx`,
    `CREATE INDEX agents_workspace_created_idx ON agents (workspace_id, created_at, id)`,
    `CREATE INDEX operators_workspace_created_idx ON operators (workspace_id, created_at, id)`,
    `DROP INDEX api_tokens_workspace_idx`,
    `CREATE INDEX api_tokens_workspace_created_idx ON api_tokens (workspace_id, created_at, id)`,
    `CREATE INDEX sources_agent_created_idx ON sources (agent_id, created_at, id)`,
  ],
};
