import { useQuery, useQueryClient } from "@tanstack/react-query";
import { api, dataOf, type Schemas } from "../api/client.js";
import { useChannel } from "../realtime/use-channel.js";
import { useOperator } from "../session.js";

export type ConsoleSource = Schemas["ConsoleSource"];

interface SourceUpdated {
  source_id: string;
  agent_id: string;
  status: ConsoleSource["status"];
  syncing: boolean;
  progress: ConsoleSource["progress"];
  error: ConsoleSource["error"];
  deleted: boolean;
}

const sourcesQueryKey = (agentId: string) => ["setup-sources", agentId] as const;

/**
 * An agent's sources with their progress: source.updated events patch them in place as pages are
 * indexed, and while one syncs they are also read again every 2 s (an event lost to a reconnect
 * cannot leave the bar stuck), as after every (re)subscription.
 */
export function useAgentSources(agentId: string) {
  const operator = useOperator();
  const queryClient = useQueryClient();
  const key = sourcesQueryKey(agentId);
  const sources = useQuery({
    queryKey: key,
    queryFn: async () => (await dataOf(api.GET("/api/v1/console/knowledge/sources", { params: { query: { agent_id: agentId } } }))).data,
    refetchInterval: (query) => (query.state.data?.some((source) => source.syncing || source.status === "pending") ? 2000 : false),
  });
  useChannel(
    `private-workspace.${operator.workspace_id}`,
    {
      "source.updated": (event: SourceUpdated) => {
        if (event.agent_id !== agentId) return;
        const known = queryClient.getQueryData<ConsoleSource[]>(key)?.some((source) => source.id === event.source_id);
        if (!known || event.deleted) {
          void queryClient.invalidateQueries({ queryKey: key });
          return;
        }
        queryClient.setQueryData<ConsoleSource[]>(key, (current) =>
          current?.map((source) =>
            source.id === event.source_id ? { ...source, status: event.status, syncing: event.syncing, progress: event.progress, error: event.error } : source,
          ),
        );
      },
    },
    () => void queryClient.invalidateQueries({ queryKey: key }),
  );
  return sources;
}
