/** The console's sections, in the navigation's order. */
export const sections = [
  { path: "/inbox", label: "Inbox" },
  { path: "/knowledge", label: "Knowledge" },
  { path: "/curated", label: "Curated answers" },
  { path: "/review", label: "Review answers" },
  { path: "/answer-tests", label: "Answer tests" },
  { path: "/saved-replies", label: "Saved replies" },
  { path: "/agents", label: "Agents" },
  { path: "/leads", label: "Leads" },
  { path: "/analytics", label: "Analytics" },
  { path: "/settings", label: "Settings" },
] as const;
