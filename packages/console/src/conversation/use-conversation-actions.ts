import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { api, ApiError, dataOf } from "../api/client.js";
import { CONVERSATIONS_QUERY_KEY } from "../inbox/use-conversation-list.js";
import { mergeMessages } from "./merge-messages.js";
import type { Conversation } from "./use-conversation.js";

type State = Pick<Conversation, "status" | "assignee" | "human_requested_at">;

/** Typing is announced at most this often while the operator keeps typing. */
const TYPING_EVERY_MS = 2000;
/** No keystroke for this long: the operator stopped typing. */
const TYPING_IDLE_MS = 4000;

/** Take over, hand back, close, reply and typing, each answered with the conversation's new state. */
export function useConversationActions(id: string, update: (change: (conversation: Conversation) => Conversation) => void) {
  const queryClient = useQueryClient();
  const path = { params: { path: { id } } };
  const settle = (state: State) => {
    update((conversation) => ({ ...conversation, status: state.status, assignee: state.assignee, human_requested_at: state.human_requested_at }));
    void queryClient.invalidateQueries({ queryKey: CONVERSATIONS_QUERY_KEY });
  };
  const assign = useMutation({
    mutationFn: async () => (await dataOf(api.POST("/api/v1/console/conversations/{id}/assign", { ...path, body: {} }))).data,
    onSuccess: settle,
  });
  const release = useMutation({
    mutationFn: async () => (await dataOf(api.POST("/api/v1/console/conversations/{id}/release", path))).data,
    onSuccess: settle,
  });
  const close = useMutation({
    mutationFn: async () => (await dataOf(api.POST("/api/v1/console/conversations/{id}/close", path))).data,
    onSuccess: settle,
  });
  const reply = useMutation({
    mutationFn: async ({ content, attachment_ids, idempotencyKey }: { content: string; attachment_ids?: string[] | undefined; idempotencyKey: string }) =>
      (
        await dataOf(
          api.POST("/api/v1/console/conversations/{id}/messages", {
            params: { path: { id }, header: { "idempotency-key": idempotencyKey } },
            body: { content, ...(attachment_ids ? { attachment_ids } : {}) },
          }),
        )
      ).data,
    // A send that got no answer (the network dropped, perhaps after the reply was stored) is sent
    // once more, with the same Idempotency-Key: the visitor gets the reply once either way.
    retry: (failures, error) => failures < 1 && error instanceof ApiError && error.status === 0,
    retryDelay: 1000,
    onSuccess: (message) => {
      update((conversation) => ({ ...conversation, messages: mergeMessages(conversation.messages, [{ ...message, low_confidence: false }]) }));
      void queryClient.invalidateQueries({ queryKey: CONVERSATIONS_QUERY_KEY });
    },
  });

  const typing = useRef<{ announcedAt: number; idle?: number }>({ announcedAt: 0 });
  const sendTyping = (value: boolean) => {
    void api.POST("/api/v1/console/conversations/{id}/typing", { ...path, body: { typing: value } }).catch(() => undefined);
  };
  const stopTyping = () => {
    window.clearTimeout(typing.current.idle);
    if (typing.current.announcedAt === 0) return;
    typing.current.announcedAt = 0;
    sendTyping(false);
  };
  /** Called on each keystroke in the reply box. */
  const keystroke = () => {
    const now = Date.now();
    if (now - typing.current.announcedAt >= TYPING_EVERY_MS) {
      typing.current.announcedAt = now;
      sendTyping(true);
    }
    window.clearTimeout(typing.current.idle);
    typing.current.idle = window.setTimeout(stopTyping, TYPING_IDLE_MS);
  };
  useEffect(() => () => window.clearTimeout(typing.current.idle), [id]);

  return { assign, release, close, reply, keystroke, stopTyping };
}
