import { useQuery, useQueryClient } from "@tanstack/react-query";
import { api, dataOf, type Schemas } from "../api/client.js";
import { useChannel } from "../realtime/use-channel.js";
import { useOperator } from "../session.js";

export type ConsoleAgent = Schemas["ConsoleAgent"];
export type BehaviorRule = Schemas["BehaviorRule"];

export const AGENTS_QUERY_KEY = ["agents"] as const;
export const agentQueryKey = (agentId: string) => ["agents", agentId] as const;

export function useAgentList() {
  return useQuery({
    queryKey: [...AGENTS_QUERY_KEY, "list"],
    queryFn: async () => (await dataOf(api.GET("/api/v1/console/agents"))).data,
  });
}

export function useAgent(agentId: string) {
  return useQuery({
    queryKey: agentQueryKey(agentId),
    queryFn: async () => (await dataOf(api.GET("/api/v1/console/agents/{id}", { params: { path: { id: agentId } } }))).data,
  });
}

/** agent.updated on the workspace channel (created, changed, published elsewhere): the agents are read again, and after a reconnect. */
export function useAgentsLive(): void {
  const operator = useOperator();
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: AGENTS_QUERY_KEY });
  useChannel(`private-workspace.${operator.workspace_id}`, { "agent.updated": refresh }, refresh);
}
