import type { Queryable } from "../db/database.js";

/**
 * Every transaction that inserts, changes or deletes an agent's chunks moves the agent's knowledge
 * revision (migration 0003) as its last statement, so the counter's row lock is held only while it
 * commits and a reader never sees new chunks under an old number. The in-memory lexical index
 * trusts nothing else: a write path that forgot this would leave it stale (the tests check each
 * path: replace, re-embed, source deletion, sitemap pruning).
 */
export async function bumpKnowledgeRevision(tx: Queryable, agentId: string): Promise<void> {
  await tx.query(`${upsertRevisionsOf("SELECT $1::text")}`, [agentId]);
}

/**
 * The upsert that moves the revision of every agent `agentIds` (a query of one `agent_id`
 * column) yields: for a data-modifying CTE, so that a deletion and its bump are one statement.
 */
export function upsertRevisionsOf(agentIds: string): string {
  return `INSERT INTO knowledge_revisions AS k (agent_id) SELECT DISTINCT agent_id FROM (${agentIds}) AS changed (agent_id)
    ON CONFLICT (agent_id) DO UPDATE SET revision = k.revision + 1`;
}
