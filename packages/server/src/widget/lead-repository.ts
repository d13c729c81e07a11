import type { Lead } from "@frontdesk/contracts";
import { countRemoved } from "../db/count-removed.js";
import type { Queryable } from "../db/database.js";
import { textArray } from "../db/text-array.js";
import { newId } from "../db/ids.js";
import { iso } from "../db/timestamps.js";

/** A `leads` row as stored (the console's lead list reads the same columns). */
export interface LeadRow {
  id: string;
  agent_id: string;
  conversation_id: string | null;
  visitor_id: string | null;
  email: string;
  name: string | null;
  phone: string | null;
  fields: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

export const toLead = (row: LeadRow): Lead => ({
  id: row.id,
  agent_id: row.agent_id,
  conversation_id: row.conversation_id,
  visitor_id: row.visitor_id,
  email: row.email,
  name: row.name,
  phone: row.phone,
  fields: row.fields,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export interface LeadInput {
  workspaceId: string;
  agentId: string;
  conversationId: string;
  visitorId: string;
  email: string;
  name: string | null;
  phone: string | null;
  fields: Record<string, unknown>;
}

/**
 * One lead per (agent, e-mail): a repeat updates name and phone where given and merges
 * `fields` over the stored ones, in one statement (the caller marks the conversation active first,
 * conversations/conversations.ts). `created` tells whether the row is new.
 */
export async function upsertLead(db: Queryable, lead: LeadInput): Promise<{ lead: Lead; created: boolean }> {
  const { rows } = await db.query<LeadRow & { created: boolean }>(
    `INSERT INTO leads (id, workspace_id, agent_id, conversation_id, visitor_id, email, email_normalized, name, phone, fields)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb)
     ON CONFLICT (agent_id, email_normalized) DO UPDATE SET
       name = COALESCE(EXCLUDED.name, leads.name),
       phone = COALESCE(EXCLUDED.phone, leads.phone),
       fields = leads.fields || EXCLUDED.fields,
       conversation_id = EXCLUDED.conversation_id,
       visitor_id = EXCLUDED.visitor_id,
       updated_at = now()
     RETURNING *, (xmax = 0) AS created`,
    [
      newId("lead"),
      lead.workspaceId,
      lead.agentId,
      lead.conversationId,
      lead.visitorId,
      lead.email.trim(),
      normalizeEmail(lead.email),
      lead.name,
      lead.phone,
      JSON.stringify(lead.fields),
    ],
  );
  const row = rows[0]!;
  return { lead: toLead(row), created: row.created };
}

export async function listAgentLeads(db: Queryable, agentId: string): Promise<Lead[]> {
  const { rows } = await db.query<LeadRow>(`SELECT * FROM leads WHERE agent_id = $1 ORDER BY created_at DESC, id`, [agentId]);
  return rows.map(toLead);
}

/** The visitor's lead (the latest updated, should the visitor have left several e-mails), or null. */
export async function findVisitorLead(db: Queryable, visitorId: string): Promise<Lead | null> {
  const { rows } = await db.query<LeadRow>(`SELECT * FROM leads WHERE visitor_id = $1 ORDER BY updated_at DESC, id LIMIT 1`, [visitorId]);
  return rows[0] ? toLead(rows[0]) : null;
}

/** One lead of the workspace by id (its primary key), or null (erased, or another workspace's). */
export async function findWorkspaceLead(db: Queryable, workspaceId: string, leadId: string): Promise<Lead | null> {
  const { rows } = await db.query<LeadRow>(`SELECT * FROM leads WHERE id = $1 AND workspace_id = $2`, [leadId, workspaceId]);
  return rows[0] ? toLead(rows[0]) : null;
}

/** Deletes the workspace's leads of these conversations (leads_conversation_idx), for erasure and retention; how many. */
export async function deleteLeadsOfConversations(tx: Queryable, workspaceId: string, conversationIds: readonly string[]): Promise<number> {
  return countRemoved(tx, `DELETE FROM leads l WHERE l.workspace_id = $1 AND l.conversation_id = ANY($2::text[])`, [workspaceId, textArray(conversationIds)]);
}

/** Deletes the workspace's leads of these visitors (leads_visitor_idx), for erasure and retention; how many. */
export async function deleteLeadsOfVisitors(tx: Queryable, workspaceId: string, visitorIds: readonly string[]): Promise<number> {
  return countRemoved(tx, `DELETE FROM leads l WHERE l.workspace_id = $1 AND l.visitor_id = ANY($2::text[])`, [workspaceId, textArray(visitorIds)]);
}

/**
 * The agent's leads of the visitor or of these conversations of theirs, oldest first, for the
 * visitor's export (leads_visitor_idx, leads_conversation_idx).
 */
export async function listLeadsToExport(
  tx: Queryable,
  scope: { workspaceId: string; agentId: string; visitorId: string; conversationIds: readonly string[] },
): Promise<Lead[]> {
  const { rows } = await tx.query<LeadRow>(
    `SELECT l.* FROM leads l WHERE l.workspace_id = $1 AND l.agent_id = $2
       AND l.id IN (SELECT v.id FROM leads v WHERE v.visitor_id = $3 UNION SELECT c.id FROM leads c WHERE c.conversation_id = ANY($4::text[]))
     ORDER BY l.created_at, l.id`,
    [scope.workspaceId, scope.agentId, scope.visitorId, textArray(scope.conversationIds)],
  );
  return rows.map(toLead);
}
