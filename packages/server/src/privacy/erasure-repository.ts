import type { ErasureCounts, ErasureRequester } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { newId } from "../db/ids.js";

/**
 * The SQL of the erasure audit (`erasures`, owned by privacy/). What erasure and retention delete,
 * each table's owner deletes: conversations/conversation-deletion.ts, inbox/notifications.ts,
 * widget/events.ts, widget/leads.ts, webhooks/forget-webhook-events.ts,
 * console/curated/forget-visitor-questions.ts.
 */

/** The audit record of an erasure: counts and who asked, nothing that names the person. Returns its random id. */
export async function recordErasure(
  tx: Queryable,
  erasure: { workspaceId: string; agentId: string | null; scope: "visitor" | "retention"; requestedBy: ErasureRequester; operatorId: string | null; counts: ErasureCounts },
): Promise<string> {
  const id = newId("era");
  await tx.query(
    `INSERT INTO erasures (id, workspace_id, agent_id, scope, requested_by, operator_id, counts) VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb)`,
    [id, erasure.workspaceId, erasure.agentId, erasure.scope, erasure.requestedBy, erasure.operatorId, JSON.stringify(erasure.counts)],
  );
  return id;
}

/** An audit record of an erasure, as `admin erasure list` prints it. */
export interface ErasureRecord {
  id: string;
  agent_id: string | null;
  scope: "visitor" | "retention";
  requested_by: ErasureRequester;
  operator_id: string | null;
  counts: ErasureCounts;
  created_at: string;
}

/** The workspace's audit records, newest first (erasures_workspace_created_idx), at most `limit`. */
export async function listErasures(db: Queryable, workspaceId: string, limit: number): Promise<ErasureRecord[]> {
  const { rows } = await db.query<Omit<ErasureRecord, "created_at"> & { created_at: Date }>(
    `SELECT id, agent_id, scope, requested_by, operator_id, counts, created_at FROM erasures WHERE workspace_id = $1
     ORDER BY created_at DESC, id DESC LIMIT $2`,
    [workspaceId, limit],
  );
  return rows.map((row) => ({ ...row, created_at: new Date(row.created_at).toISOString() }));
}
