import type { Queryable } from "../db/database.js";
import { textArray } from "../db/text-array.js";

/** A round-robin agent's turn, read under its row's lock: its team (empty: every operator) and who was given the last request. */
export interface RoundRobinTurn {
  team: string[];
  lastOperatorId: string | null;
}

/**
 * Locks a `round_robin` agent's row for the rest of the transaction (FOR NO KEY UPDATE: a new
 * conversation's foreign key check on the agent does not wait) and reads its turn; null, and
 * nothing locked, for a `manual` agent or one of another workspace. Concurrent handoffs of the
 * agent, in any process, queue here: each reads the pointer the previous one moved.
 */
export async function lockRoundRobinTurn(tx: Queryable, workspaceId: string, agentId: string): Promise<RoundRobinTurn | null> {
  const { rows } = await tx.query<{ routing_team: string[]; routing_last_operator_id: string | null }>(
    `SELECT routing_team, routing_last_operator_id FROM agents
     WHERE id = $1 AND workspace_id = $2 AND routing = 'round_robin' FOR NO KEY UPDATE`,
    [agentId, workspaceId],
  );
  const row = rows[0];
  return row ? { team: row.routing_team, lastOperatorId: row.routing_last_operator_id } : null;
}

/** Moves the agent's turn to the operator just given a request (no `updated_at`: not a change of its settings). */
export async function moveRoundRobinTurn(tx: Queryable, agentId: string, operatorId: string): Promise<void> {
  await tx.query(`UPDATE agents SET routing_last_operator_id = $2 WHERE id = $1`, [agentId, operatorId]);
}

/** Which of `operatorIds` are operators of the workspace, with their names, by id (the turn's order). */
export async function findWorkspaceOperatorsAmong(db: Queryable, workspaceId: string, operatorIds: readonly string[]): Promise<{ id: string; name: string }[]> {
  if (operatorIds.length === 0) return [];
  const { rows } = await db.query<{ id: string; name: string }>(
    `SELECT id, name FROM operators WHERE workspace_id = $1 AND id = ANY($2::text[]) ORDER BY id`,
    [workspaceId, textArray(operatorIds)],
  );
  return rows;
}
