import type { VisitorIdentity } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { iso } from "../db/timestamps.js";

/** The visitor columns of a verified identity (migration 0047), as the console's reads select them. */
export interface VisitorIdentityColumns {
  user_id: string | null;
  user_email: string | null;
  user_name: string | null;
  user_verified_at: Date | null;
}

/** A verified visitor's identity from their row's columns; null for an anonymous visitor. */
export function visitorIdentityOf(row: VisitorIdentityColumns): VisitorIdentity | null {
  return row.user_id !== null && row.user_verified_at !== null
    ? { user_id: row.user_id, email: row.user_email, name: row.user_name, verified_at: iso(row.user_verified_at) }
    : null;
}

/** The agent's visitor of this verified `user_id` (visitors_agent_user_idx), or null: erasure and export by user id find it so. */
export async function findUserVisitorId(db: Queryable, agentId: string, userId: string): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(`SELECT id FROM visitors WHERE agent_id = $1 AND user_id = $2`, [agentId, userId]);
  return rows[0]?.id ?? null;
}
