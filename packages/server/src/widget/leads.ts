/**
 * Leads as other domains read them (the console, export): `leads` is owned by widget/, whose
 * repository alone holds its SQL.
 */
export { deleteLeadsOfConversations, deleteLeadsOfVisitors, findVisitorLead, listAgentLeads, toLead } from "./lead-repository.js";
export type { LeadRow } from "./lead-repository.js";
