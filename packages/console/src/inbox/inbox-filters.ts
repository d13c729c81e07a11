/** The inbox's filters, each a query of GET /api/v1/console/conversations; snoozed conversations show only under "Snoozed". */
export const inboxFilters = [
  { id: "open", label: "All open", query: { status: "bot,awaiting_human,human", snoozed: "false" } },
  { id: "awaiting", label: "Awaiting a human", query: { status: "awaiting_human", snoozed: "false" } },
  { id: "mine", label: "Mine", query: { assignee: "me", status: "human", snoozed: "false" } },
  { id: "unassigned", label: "Unassigned", query: { assignee: "none", status: "bot,awaiting_human", snoozed: "false" } },
  { id: "bot", label: "Bot", query: { status: "bot", snoozed: "false" } },
  { id: "snoozed", label: "Snoozed", query: { status: "bot,awaiting_human,human", snoozed: "true" } },
  { id: "closed", label: "Closed", query: { status: "closed" } },
] as const;

export type InboxFilter = (typeof inboxFilters)[number];
export type InboxFilterId = InboxFilter["id"];

export function inboxFilterOf(id: string | null): InboxFilter {
  return inboxFilters.find((filter) => filter.id === id) ?? inboxFilters[0];
}
