import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, dataOf, type Schemas } from "../api/client.js";
import { useChannel } from "../realtime/use-channel.js";
import { useOperator } from "../session.js";
import type { Conversation } from "./use-conversation.js";

export type ConversationNote = Schemas["ConversationNote"];

/** Notes in the order they were written, each id once. */
export function mergeNotes(current: readonly ConversationNote[], incoming: readonly ConversationNote[]): ConversationNote[] {
  const byId = new Map<string, ConversationNote>();
  for (const note of [...current, ...incoming]) byId.set(note.id, note);
  return [...byId.values()].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
}

type Update = (change: (conversation: Conversation) => Conversation) => void;

/**
 * The conversation's notes, live: a note is announced on the workspace's channel (operators only;
 * never on the conversation's channel, which its visitor shares) and merged here when it is this
 * conversation's; each (re)subscription reads them again. Adding one shows it at once.
 */
export function useNotes(id: string, update: Update, enabled: boolean) {
  const operator = useOperator();
  const queryClient = useQueryClient();
  const merge = (notes: readonly ConversationNote[]) => update((conversation) => ({ ...conversation, notes: mergeNotes(conversation.notes, notes) }));
  useChannel(
    enabled ? `private-workspace.${operator.workspace_id}` : null,
    {
      "note.created": (note: ConversationNote) => {
        if (note.conversation_id === id) merge([note]);
      },
    },
    // Every (re)subscription reads the notes again: one written while the connection was down is not missed.
    () => {
      void dataOf(api.GET("/api/v1/console/conversations/{id}/notes", { params: { path: { id } } })).then(
        (page) => merge(page.data),
        () => undefined,
      );
    },
  );
  const add = useMutation({
    mutationFn: async (content: string) => (await dataOf(api.POST("/api/v1/console/conversations/{id}/notes", { params: { path: { id } }, body: { content } }))).data,
    onSuccess: (note) => {
      update((conversation) => ({ ...conversation, notes: mergeNotes(conversation.notes, [note]) }));
      void queryClient.invalidateQueries({ queryKey: ["notifications"] });
    },
  });
  return { add };
}
