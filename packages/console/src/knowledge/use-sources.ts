import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { api, dataOf, type Schemas } from "../api/client.js";
import { useChannel } from "../realtime/use-channel.js";
import { useOperator } from "../session.js";

type Source = Schemas["ConsoleSource"];

export const SOURCES_QUERY_KEY = ["knowledge-sources"] as const;
export const sourceQueryKey = (sourceId: string) => ["knowledge-source", sourceId] as const;

/**
 * While a source syncs, its list is read again this often: a source indexed by a separate worker
 * process announces nothing on the channel, so its progress would otherwise stand still.
 */
const SYNCING_REREAD_MS = 2000;

/** `source.updated` on the workspace channel. */
interface SourceUpdate {
  source_id: string;
  agent_id: string;
  status: Source["status"];
  syncing: boolean;
  progress: Source["progress"];
  error: Source["error"];
  deleted: boolean;
}

/** An agent's sources, oldest first, re-read while one syncs. */
export function useSources(agentId: string | null) {
  return useQuery({
    queryKey: [...SOURCES_QUERY_KEY, agentId],
    queryFn: async () => (await dataOf(api.GET("/api/v1/console/knowledge/sources", { params: { query: { agent_id: agentId! } } }))).data,
    enabled: agentId !== null,
    refetchInterval: (query) => (query.state.data?.some((source) => source.syncing || source.status === "pending") ? SYNCING_REREAD_MS : false),
  });
}

/** Patches the cached list in place (its progress moves without a read); a source the list lacks makes it read again. */
function applyUpdate(queryClient: QueryClient, update: SourceUpdate): void {
  const key = [...SOURCES_QUERY_KEY, update.agent_id];
  const sources = queryClient.getQueryData<Source[]>(key);
  void queryClient.invalidateQueries({ queryKey: sourceQueryKey(update.source_id) });
  if (!sources) return;
  if (update.deleted) {
    queryClient.setQueryData<Source[]>(key, sources.filter((source) => source.id !== update.source_id));
    return;
  }
  if (!sources.some((source) => source.id === update.source_id)) {
    void queryClient.invalidateQueries({ queryKey: key });
    return;
  }
  queryClient.setQueryData<Source[]>(
    key,
    sources.map((source) =>
      source.id === update.source_id ? { ...source, status: update.status, syncing: update.syncing, progress: update.progress, error: update.error } : source,
    ),
  );
  // A settled source is read once more for what the event does not carry (its last sync's time).
  if (!update.syncing) void queryClient.invalidateQueries({ queryKey: key });
}

/** Keeps the Knowledge screen's sources live from the workspace channel; every (re)subscription reads them again. */
export function useSourcesLive(): void {
  const operator = useOperator();
  const queryClient = useQueryClient();
  useChannel(
    `private-workspace.${operator.workspace_id}`,
    { "source.updated": (update: SourceUpdate) => applyUpdate(queryClient, update) },
    () => void queryClient.invalidateQueries({ queryKey: SOURCES_QUERY_KEY }),
  );
}
