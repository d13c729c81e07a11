import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, dataOf, type Schemas } from "../api/client.js";
import type { paths } from "../api/generated/frontdesk-api.js";

export type SavedReply = Schemas["SavedReply"];
export type CreateSavedReplyBody = NonNullable<paths["/api/v1/console/saved-replies"]["post"]["requestBody"]>["content"]["application/json"];
export type UpdateSavedReplyBody = NonNullable<paths["/api/v1/console/saved-replies/{id}"]["patch"]["requestBody"]>["content"]["application/json"];

export const SAVED_REPLIES_QUERY_KEY = ["saved-replies"] as const;

/** The workspace's saved replies and the operator's own, by shortcut (the picker and the management screen share them). */
export function useSavedReplies(enabled = true) {
  return useQuery({
    queryKey: SAVED_REPLIES_QUERY_KEY,
    queryFn: async () => (await dataOf(api.GET("/api/v1/console/saved-replies"))).data,
    enabled,
    staleTime: 30_000,
  });
}

/** Create, change and delete; each reads the list again. */
export function useSavedReplyMutations() {
  const queryClient = useQueryClient();
  const settled = () => void queryClient.invalidateQueries({ queryKey: SAVED_REPLIES_QUERY_KEY });
  return {
    create: useMutation({ mutationFn: async (body: CreateSavedReplyBody) => (await dataOf(api.POST("/api/v1/console/saved-replies", { body }))).data, onSettled: settled }),
    update: useMutation({
      mutationFn: async ({ id, body }: { id: string; body: UpdateSavedReplyBody }) =>
        (await dataOf(api.PATCH("/api/v1/console/saved-replies/{id}", { params: { path: { id } }, body }))).data,
      onSettled: settled,
    }),
    remove: useMutation({ mutationFn: (id: string) => dataOf(api.DELETE("/api/v1/console/saved-replies/{id}", { params: { path: { id } } })), onSettled: settled }),
  };
}

/** The reply's text with its variables filled for the conversation (the server fills them: docs/api.md). */
export async function renderSavedReply(id: string, conversationId: string): Promise<string> {
  return (await dataOf(api.POST("/api/v1/console/saved-replies/{id}/render", { params: { path: { id } }, body: { conversation_id: conversationId } }))).data.content;
}
