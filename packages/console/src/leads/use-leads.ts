import { useInfiniteQuery } from "@tanstack/react-query";
import { api, dataOf } from "../api/client.js";

export const LEADS_QUERY_KEY = ["leads"] as const;
const PAGE_SIZE = "50";
/** No realtime event announces a captured lead (yet), so an open Leads screen reads its pages again this often. */
const REREAD_MS = 20_000;

/** The workspace's leads, newest first, page after page (cursor); `search` in the e-mail or name, `agentId` one agent's. */
export function useLeads(search: string, agentId: string) {
  return useInfiniteQuery({
    queryKey: [...LEADS_QUERY_KEY, search, agentId],
    queryFn: ({ pageParam }) =>
      dataOf(
        api.GET("/api/v1/console/leads", {
          params: { query: { limit: PAGE_SIZE, ...(search ? { q: search } : {}), ...(agentId ? { agent_id: agentId } : {}), ...(pageParam ? { cursor: pageParam } : {}) } },
        }),
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next_cursor,
    refetchInterval: REREAD_MS,
  });
}

/** The CSV export of the same leads (the session cookie goes with it: its path is /api/v1/console). */
export function leadsCsvHref(search: string, agentId: string): string {
  const parameters = new URLSearchParams();
  if (search) parameters.set("q", search);
  if (agentId) parameters.set("agent_id", agentId);
  const query = parameters.toString();
  return `/api/v1/console/leads.csv${query ? `?${query}` : ""}`;
}
