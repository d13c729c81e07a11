import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { api, dataOf, type Schemas } from "../api/client.js";
import { CONVERSATIONS_QUERY_KEY } from "../inbox/use-conversation-list.js";
import { useChannel } from "../realtime/use-channel.js";
import { lastSeqOf, mergeMessages, type ConsoleMessage } from "./merge-messages.js";

export type Conversation = Schemas["ConsoleConversation"];
type ConversationState = Pick<Conversation, "status" | "assignee" | "human_requested_at">;

export const conversationQueryKey = (id: string) => ["conversation", id] as const;

/** A typing indicator nobody switched off (a closed tab) fades after this long. */
const TYPING_FADE_MS = 8000;

interface LiveMessage {
  id: string;
  seq: number;
  role: ConsoleMessage["role"];
  content: string;
  citations: ConsoleMessage["citations"];
  author: { id: string; name: string } | null;
  created_at: string;
}

/**
 * One conversation, live: read once, then kept current through its channel (messages, state
 * changes, typing). Every (re)subscription reads the messages after the last seq held, so a
 * reconnect misses nothing; a live message is shown at once and read again in full (its
 * low-confidence flag travels only in the stored form).
 */
export function useConversation(id: string) {
  const queryClient = useQueryClient();
  const key = conversationQueryKey(id);
  const query = useQuery({
    queryKey: key,
    queryFn: async () => (await dataOf(api.GET("/api/v1/console/conversations/{id}", { params: { path: { id } } }))).data,
  });
  const [visitorTyping, setVisitorTyping] = useState(false);
  /** Subscribed to the conversation's channel: what happens now arrives live. */
  const [live, setLive] = useState(false);
  const fades = useRef<{ visitor?: number }>({});

  const update = useCallback(
    (change: (conversation: Conversation) => Conversation) => queryClient.setQueryData<Conversation>(key, (current) => (current ? change(current) : current)),
    [queryClient, id],
  );
  const applyState = useCallback((state: ConversationState) => update((current) => ({ ...current, ...state })), [update]);

  const syncing = useRef<Promise<void> | null>(null);
  const again = useRef(false);
  const catchUp = useCallback(() => {
    if (syncing.current) {
      again.current = true;
      return;
    }
    syncing.current = (async () => {
      do {
        again.current = false;
        for (;;) {
          const current = queryClient.getQueryData<Conversation>(key);
          if (!current) return;
          const page = (
            await dataOf(
              api.GET("/api/v1/console/conversations/{id}/messages", {
                params: { path: { id }, query: { after_seq: String(lastSeqOf(current.messages)) } },
              }),
            )
          ).data;
          update((conversation) => ({
            ...conversation,
            messages: mergeMessages(conversation.messages, page.messages),
            status: page.conversation.status,
            assignee: page.conversation.assignee,
            human_requested_at: page.conversation.human_requested_at,
          }));
          if (!page.has_more) break;
        }
      } while (again.current);
    })()
      .catch(() => undefined)
      .finally(() => {
        syncing.current = null;
      });
  }, [queryClient, id, update]);

  useEffect(
    () => () => {
      window.clearTimeout(fades.current.visitor);
    },
    [],
  );

  useChannel(
    query.data ? `private-conversation.${id}` : null,
    {
      "message.created": (message: LiveMessage) => {
        update((conversation) => ({ ...conversation, messages: mergeMessages(conversation.messages, [{ ...message, low_confidence: false }]) }));
        if (message.role === "visitor") setVisitorTyping(false);
        catchUp();
      },
      "conversation.updated": (state: ConversationState & { seq: number }) => applyState(state),
      // Erased (a visitor's request) or purged (retention): nothing is left to show; reading it again gives the not-found state.
      "conversation.deleted": () => {
        void queryClient.resetQueries({ queryKey: key });
        void queryClient.invalidateQueries({ queryKey: CONVERSATIONS_QUERY_KEY });
      },
      // The assignee's `typing` is for the visitor: colleagues' typing comes by the collision channel (use-conversation-presence.ts).
      typing: (event: { role: string; typing: boolean }) => {
        if (event.role !== "visitor") return;
        setVisitorTyping(event.typing);
        window.clearTimeout(fades.current.visitor);
        if (event.typing) fades.current.visitor = window.setTimeout(() => setVisitorTyping(false), TYPING_FADE_MS);
      },
    },
    () => {
      setLive(true);
      catchUp();
    },
  );

  // What is on screen is read: the operator's read marker follows the last message shown.
  const lastSeq = query.data ? lastSeqOf(query.data.messages) : 0;
  const lastReadSeq = query.data?.last_read_seq ?? 0;
  useEffect(() => {
    if (!query.data || lastSeq <= lastReadSeq) return;
    void dataOf(api.POST("/api/v1/console/conversations/{id}/read", { params: { path: { id } }, body: { seq: lastSeq } })).then(
      (result) => {
        update((conversation) => ({ ...conversation, last_read_seq: result.data.last_read_seq, unread_count: result.data.unread_count }));
        void queryClient.invalidateQueries({ queryKey: CONVERSATIONS_QUERY_KEY });
      },
      () => undefined,
    );
  }, [id, lastSeq, lastReadSeq, Boolean(query.data)]);

  return { query, live, visitorTyping, applyState, update };
}
