import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import type { CuratedAnswerEvent } from "@frontdesk/contracts";
import { api, dataOf, type Schemas } from "../api/client.js";
import type { paths } from "../api/generated/frontdesk-api.js";
import { useChannel } from "../realtime/use-channel.js";
import { useOperator } from "../session.js";

export type CuratedAnswer = Schemas["CuratedAnswer"];
export type KnowledgeGap = Schemas["KnowledgeGap"];
type CreateBody = NonNullable<paths["/api/v1/console/curated-answers"]["post"]["requestBody"]>["content"]["application/json"];
type UpdateBody = NonNullable<paths["/api/v1/console/curated-answers/{id}"]["patch"]["requestBody"]>["content"]["application/json"];

export const CURATED_QUERY_KEY = ["curated-answers"] as const;
export const KNOWLEDGE_GAPS_QUERY_KEY = ["knowledge-gaps"] as const;

/** An agent's curated answers, newest first. */
export function useCuratedAnswers(agentId: string | null) {
  return useQuery({
    queryKey: [...CURATED_QUERY_KEY, agentId],
    queryFn: async () => (await dataOf(api.GET("/api/v1/console/curated-answers", { params: { query: { agent_id: agentId! } } }))).data,
    enabled: agentId !== null,
  });
}

/** An agent's knowledge gaps over the last 30 days (the server's default period). */
export function useKnowledgeGaps(agentId: string | null) {
  return useQuery({
    queryKey: [...KNOWLEDGE_GAPS_QUERY_KEY, agentId],
    queryFn: async () => (await dataOf(api.GET("/api/v1/console/knowledge-gaps", { params: { query: { agent_id: agentId! } } }))).data,
    enabled: agentId !== null,
  });
}

/** Both lists read again: a curated answer changes what is curated and which gaps are answered. */
function invalidateCurated(queryClient: ReturnType<typeof useQueryClient>): void {
  void queryClient.invalidateQueries({ queryKey: CURATED_QUERY_KEY });
  void queryClient.invalidateQueries({ queryKey: KNOWLEDGE_GAPS_QUERY_KEY });
}

/** Create ("Fix this answer", "Answer it"), change and delete; every outcome reads the lists again. */
export function useCuratedAnswerMutations() {
  const queryClient = useQueryClient();
  const settled = () => invalidateCurated(queryClient);
  return {
    create: useMutation({
      mutationFn: async (body: CreateBody) => (await dataOf(api.POST("/api/v1/console/curated-answers", { body }))).data,
      onSettled: settled,
    }),
    update: useMutation({
      mutationFn: async ({ id, body }: { id: string; body: UpdateBody }) =>
        (await dataOf(api.PATCH("/api/v1/console/curated-answers/{id}", { params: { path: { id } }, body }))).data,
      onSettled: settled,
    }),
    remove: useMutation({
      mutationFn: (id: string) => dataOf(api.DELETE("/api/v1/console/curated-answers/{id}", { params: { path: { id } } })),
      onSettled: settled,
    }),
  };
}

/** A burst of the workspace's bot replies is one read of the knowledge gaps. */
const GAPS_REREAD_DELAY_MS = 1000;

/**
 * Keeps the Curated answers screen live from the workspace channel: `curated_answer.updated` (a
 * curated answer written in any console) reads both lists again, a bot reply (maybe a
 * low-confidence one) reads the gaps again, and so does every (re)subscription.
 */
export function useCuratedLive(): void {
  const operator = useOperator();
  const queryClient = useQueryClient();
  const pending = useRef<number | null>(null);
  useEffect(
    () => () => {
      if (pending.current !== null) window.clearTimeout(pending.current);
    },
    [],
  );
  useChannel(
    `private-workspace.${operator.workspace_id}`,
    {
      "curated_answer.updated": (_event: CuratedAnswerEvent) => invalidateCurated(queryClient),
      "message.created": (message: { role: string }) => {
        if (message.role !== "bot" || pending.current !== null) return;
        pending.current = window.setTimeout(() => {
          pending.current = null;
          void queryClient.invalidateQueries({ queryKey: KNOWLEDGE_GAPS_QUERY_KEY });
        }, GAPS_REREAD_DELAY_MS);
      },
    },
    () => invalidateCurated(queryClient),
  );
}
