import type { Services } from "../../services.js";
import type { SignedInOperator } from "../authenticate-operator.js";
import { decodeCursor, encodeCursor } from "../../paging/page-cursor.js";
import { listWorkspaceLeads, type LeadListFilter } from "../../widget/leads.js";
import { LEAD_PAGE_DEFAULT } from "./schemas.js";

export interface LeadListQuery {
  q?: string | undefined;
  agent_id?: string | undefined;
  cursor?: string | undefined;
  limit?: number | undefined;
}

/** GET /console/leads: a page of the workspace's leads, newest first. */
export async function listLeads(services: Services, operator: SignedInOperator, query: LeadListQuery) {
  const limit = query.limit ?? LEAD_PAGE_DEFAULT;
  const filter: LeadListFilter = { workspaceId: operator.workspaceId, agentId: query.agent_id, search: query.q, limit: limit + 1 };
  if (query.cursor) {
    const [createdMicroseconds, id] = decodeCursor(query.cursor, ["us", "id"] as const);
    filter.after = { createdMicroseconds, id };
  }
  const rows = await listWorkspaceLeads(services.db, filter);
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return {
    data: shown.map((row) => row.lead),
    next_cursor: rows.length > limit && last ? encodeCursor([last.createdMicroseconds, last.lead.id]) : null,
  };
}
