import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { api, dataOf, type Schemas } from "../api/client.js";
import { useChannel } from "../realtime/use-channel.js";

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

/** Events that change the figures come in bursts (a message, its answer, a state change): one read after this pause. */
const LIVE_PAUSE_MS = 1_000;

/**
 * Keeps the figures on screen current: a conversation started, changed or written to in the
 * workspace makes them read again (one read per burst), as does every resubscription after a
 * reconnect; an agent created or renamed reads the agents again.
 */
export function useAnalyticsLive(workspaceId: string): void {
  const queryClient = useQueryClient();
  const pending = useRef<number | null>(null);
  useEffect(() => () => {
    if (pending.current !== null) window.clearTimeout(pending.current);
  }, []);
  const refresh = () => {
    if (pending.current !== null) return;
    pending.current = window.setTimeout(() => {
      pending.current = null;
      void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] === "analytics" && query.queryKey[1] !== "agents" });
    }, LIVE_PAUSE_MS);
  };
  useChannel(
    `private-workspace.${workspaceId}`,
    {
      "conversation.started": refresh,
      "human.requested": refresh,
      "conversation.updated": refresh,
      "message.created": refresh,
      "agent.updated": () => void queryClient.invalidateQueries({ queryKey: ["analytics", "agents"] }),
    },
    refresh,
  );
}
