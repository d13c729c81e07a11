import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useLocation } from "wouter";
import { useChannel } from "../realtime/use-channel.js";
import { useOperator } from "../session.js";
import { alertOperator } from "./alert-operator.js";
import { CONVERSATIONS_QUERY_KEY } from "./use-conversation-list.js";
import { NOTIFICATIONS_QUERY_KEY } from "./use-notifications.js";

/**
 * The workspace's channel, for the whole session: a new conversation, a request for a human, a
 * state change or a message makes the inbox's lists read again (coalesced: a burst of events is
 * one read), and so does every resubscription after a reconnect (whatever happened meanwhile).
 * A request for a human also chimes and, if allowed, shows a browser notification.
 * Joining the operators' presence channel is what makes this operator "online" to visitors.
 */
/** Returns the latest announcement for screen readers (a visitor asked for a person). */
export function useWorkspaceLive(): string {
  const operator = useOperator();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const pending = useRef<number | null>(null);
  const [announcement, setAnnouncement] = useState("");
  useEffect(() => () => {
    if (pending.current !== null) window.clearTimeout(pending.current);
  }, []);
  const refresh = () => {
    if (pending.current !== null) return;
    pending.current = window.setTimeout(() => {
      pending.current = null;
      void queryClient.invalidateQueries({ queryKey: CONVERSATIONS_QUERY_KEY });
    }, 100);
  };
  useChannel(
    `private-workspace.${operator.workspace_id}`,
    {
      "conversation.started": refresh,
      "human.requested": (request: { conversation_id: string; reason: string | null; assigned_to?: string | null }) => {
        refresh();
        // Routed round robin to a colleague: theirs to answer, this console only refreshes.
        if (request.assigned_to && request.assigned_to !== operator.id) return;
        alertOperator(request, (conversationId) => navigate(`/inbox/${conversationId}`));
        setAnnouncement(`A visitor asks for a person (${new Date().toLocaleTimeString()}).`);
      },
      "conversation.updated": refresh,
      // Snoozed, or back (its time came, the visitor wrote): the open and snoozed views change.
      "conversation.snoozed": refresh,
      // Erased or purged (reason `erasure` | `retention`): the lists drop it.
      "conversation.deleted": refresh,
      "message.created": refresh,
      // A label put on or taken off: the lists' chips, and the conversation if it is open.
      "conversation.labels.changed": (event: { conversation_id: string }) => {
        refresh();
        void queryClient.invalidateQueries({ queryKey: ["conversation", event.conversation_id], exact: true });
      },
      // Announced once for the workspace: this operator's own are picked by operator_id.
      "notification.created": (event: { notifications: { operator_id: string }[] }) => {
        if (event.notifications.some((notification) => notification.operator_id === operator.id)) {
          void queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_QUERY_KEY });
        }
      },
    },
    () => {
      refresh();
      void queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_QUERY_KEY });
    },
  );
  useChannel(`presence-operators.${operator.workspace_id}`, {});
  return announcement;
}
