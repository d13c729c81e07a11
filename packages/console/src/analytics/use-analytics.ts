import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, dataOf, type Schemas } from "../api/client.js";

export type AgentAnalytics = Schemas["AgentAnalytics"];
export type AnalyticsPeriod = { agentId: string; from: string; to: string };

/** The workspace's agents, for choosing whose figures to show. */
export function useAgentChoices() {
  return useQuery({
    queryKey: ["analytics", "agents"],
    queryFn: async () => (await dataOf(api.GET("/api/v1/console/agents"))).data.map((agent) => ({ id: agent.id, name: agent.name })),
  });
}

/** One agent's figures over a period (the previous period's stay on screen while the next loads). */
export function useAnalytics(period: AnalyticsPeriod | null) {
  return useQuery({
    queryKey: ["analytics", period?.agentId, period?.from, period?.to],
    enabled: period !== null,
    placeholderData: keepPreviousData,
    queryFn: async () =>
      (
        await dataOf(
          api.GET("/api/v1/console/analytics", {
            params: { query: { agent_id: period!.agentId, from: period!.from, to: period!.to } },
          }),
        )
      ).data,
  });
}
