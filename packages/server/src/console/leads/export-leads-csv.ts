import type { Services } from "../../services.js";
import type { SignedInOperator } from "../authenticate-operator.js";
import { csvRow } from "./csv-row.js";
import { listWorkspaceLeads, type LeadListFilter } from "../../widget/leads.js";
import { CSV_COLUMNS } from "./schemas.js";

/** Leads read per query while exporting: the file is written a page at a time, never held whole. */
const EXPORT_PAGE = 500;

/**
 * GET /console/leads.csv: every lead the same search would list, newest first, as CSV lines: the
 * header comes with the first page (so the first read happens before anything is sent), then a
 * chunk per page, read through the workspace's index by keyset: a big export neither sorts nor
 * holds every lead at once.
 */
export async function* exportLeadsCsv(services: Services, operator: SignedInOperator, query: { q?: string | undefined; agent_id?: string | undefined }) {
  let chunk = csvRow(CSV_COLUMNS);
  const filter: LeadListFilter = { workspaceId: operator.workspaceId, agentId: query.agent_id, search: query.q, limit: EXPORT_PAGE };
  for (;;) {
    const rows = await listWorkspaceLeads(services.db, filter);
    for (const { lead } of rows) {
      chunk += csvRow([
        lead.email,
        lead.name ?? "",
        lead.phone ?? "",
        lead.agent_name,
        lead.created_at,
        lead.updated_at,
        lead.conversation_id ?? "",
        Object.keys(lead.fields).length === 0 ? "" : JSON.stringify(lead.fields),
      ]);
    }
    if (chunk !== "") yield chunk;
    chunk = "";
    const last = rows.at(-1);
    if (rows.length < EXPORT_PAGE || !last) return;
    filter.after = { createdMicroseconds: last.createdMicroseconds, id: last.lead.id };
  }
}
