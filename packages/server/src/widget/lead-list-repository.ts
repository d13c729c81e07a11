import type { Queryable, SqlValue } from "../db/database.js";
import type { Lead } from "@frontdesk/contracts";
import { microsecondsOf, timestampFromMicroseconds } from "../paging/page-cursor.js";
import { toLead, type LeadRow } from "./lead-repository.js";

/** A lead as the widget API shows it, with its agent's name. */
export type ConsoleLead = Lead & { agent_name: string };

export interface LeadListFilter {
  workspaceId: string;
  agentId?: string | undefined;
  /** Part of the e-mail or of the name, any case. */
  search?: string | undefined;
  /** The last row of the previous page: its creation time (microseconds) and id. */
  after?: { createdMicroseconds: string; id: string } | undefined;
  limit: number;
}

export interface LeadListRow {
  lead: ConsoleLead;
  createdMicroseconds: string;
}

type Row = LeadRow & { agent_name: string; created_us: string };

/**
 * A page of the workspace's leads, newest first (ties: by id, descending), after the cursor's row:
 * keyset pagination on (created_at DESC, id DESC), read from leads_workspace_created_idx, or
 * leads_agent_created_idx with an agent (the workspace still bounds the rows). The search keeps
 * the leads whose e-mail or name contains the text, any case, while the index walk goes on (a
 * substring has no index of its own; a workspace's leads are read newest first until the page is full).
 */
export async function listWorkspaceLeads(db: Queryable, filter: LeadListFilter): Promise<LeadListRow[]> {
  const params: SqlValue[] = [filter.workspaceId];
  const parameter = (value: SqlValue) => {
    params.push(value);
    return `$${params.length}`;
  };
  const conditions = [`l.workspace_id = $1`];
  if (filter.agentId) conditions.push(`l.agent_id = ${parameter(filter.agentId)}`);
  if (filter.search) {
    const text = parameter(filter.search.toLowerCase());
    conditions.push(`(position(${text} in l.email_normalized) > 0 OR position(${text} in lower(COALESCE(l.name, ''))) > 0)`);
  }
  if (filter.after) {
    const at = timestampFromMicroseconds(parameter(filter.after.createdMicroseconds));
    const id = parameter(filter.after.id);
    // The first half bounds the index scan; the second only separates the rows tied with the cursor's.
    conditions.push(`l.created_at <= ${at} AND (l.created_at < ${at} OR l.id < ${id})`);
  }
  const limit = parameter(filter.limit);
  const { rows } = await db.query<Row>(
    `SELECT l.id, l.agent_id, a.name AS agent_name, l.conversation_id, l.visitor_id, l.email, l.name, l.phone, l.fields,
       l.created_at, l.updated_at, ${microsecondsOf("l.created_at")} AS created_us
     FROM leads l JOIN agents a ON a.id = l.agent_id
     WHERE ${conditions.join(" AND ")}
     ORDER BY l.created_at DESC, l.id DESC
     LIMIT ${limit}`,
    params,
  );
  return rows.map((row) => ({ createdMicroseconds: row.created_us, lead: { ...toLead(row), agent_name: row.agent_name } }));
}
