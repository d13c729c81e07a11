/**
 * Leads as other domains read them (the console's list and CSV, export, erasure): `leads` is owned by widget/, whose
 * repository alone holds its SQL.
 */
export { deleteLeadsOfConversations, deleteLeadsOfVisitors, findVisitorLead, listAgentLeads, listLeadsToExport, normalizeEmail, toLead } from "./lead-repository.js";
export type { LeadRow } from "./lead-repository.js";
export { listWorkspaceLeads } from "./lead-list-repository.js";
export type { LeadListFilter } from "./lead-list-repository.js";
