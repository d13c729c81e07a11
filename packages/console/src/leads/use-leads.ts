import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "../api/client.js";
import { useChannel } from "../realtime/use-channel.js";
import { useOperator } from "../session.js";

export const LEADS_QUERY_KEY = ["leads"] as const;
const PAGE_SIZE = "50";

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
  });
}

/**
 * `lead.captured` and `lead.updated` on the workspace channel (a visitor left or changed an e-mail):
 * the loaded pages are read again, and at every (re)subscription, for what was missed meanwhile.
 */
export function useLeadsLive(): void {
  const operator = useOperator();
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: LEADS_QUERY_KEY });
  useChannel(`private-workspace.${operator.workspace_id}`, { "lead.captured": refresh, "lead.updated": refresh }, refresh);
}

/** The CSV export of the same leads (the session cookie goes with it: its path is /api/v1/console). */
export function leadsCsvHref(search: string, agentId: string): string {
  const parameters = new URLSearchParams();
  if (search) parameters.set("q", search);
  if (agentId) parameters.set("agent_id", agentId);
  const query = parameters.toString();
  return `/api/v1/console/leads.csv${query ? `?${query}` : ""}`;
}
