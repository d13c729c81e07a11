import { useQuery } from "@tanstack/react-query";
import { api, dataOf } from "../api/client.js";

export const AGENTS_QUERY_KEY = ["agents"] as const;

/** The workspace's agents, oldest first (for the agent pickers). */
export function useAgents() {
  return useQuery({
    queryKey: AGENTS_QUERY_KEY,
    queryFn: async () => (await dataOf(api.GET("/api/v1/console/agents"))).data,
  });
}
