import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { api, dataOf } from "../api/client.js";

export const NOTIFICATIONS_QUERY_KEY = ["notifications"] as const;

/** The operator's notifications (unread first, the latest 100) and how many are unread. */
export function useNotifications() {
  return useQuery({
    queryKey: NOTIFICATIONS_QUERY_KEY,
    queryFn: () => dataOf(api.GET("/api/v1/console/notifications", { params: { query: { limit: "100" } } })),
  });
}

/** Opening a conversation reads its notifications (a visitor asked for a person there). */
export function useReadNotificationsOf(conversationId: string): void {
  const queryClient = useQueryClient();
  const notifications = useNotifications();
  const unread = (notifications.data?.data ?? [])
    .filter((notification) => notification.conversation_id === conversationId && notification.read_at === null)
    .map((notification) => notification.id);
  const ids = unread.join(",");
  useEffect(() => {
    if (!ids) return;
    void dataOf(api.POST("/api/v1/console/notifications/read", { body: { ids: ids.split(",") } })).then(
      () => queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_QUERY_KEY }),
      () => undefined,
    );
  }, [ids, queryClient]);
}

/** Opening an agent's answer tests reads the notifications of its tests that fail now (answer_tests.regressed). */
export function useReadAnswerTestNotificationsOf(agentId: string): void {
  const queryClient = useQueryClient();
  const notifications = useNotifications();
  const unread = (notifications.data?.data ?? [])
    .filter((notification) => notification.kind === "answer_tests.regressed" && notification.payload["agent_id"] === agentId && notification.read_at === null)
    .map((notification) => notification.id);
  const ids = unread.join(",");
  useEffect(() => {
    if (!ids) return;
    void dataOf(api.POST("/api/v1/console/notifications/read", { body: { ids: ids.split(",") } })).then(
      () => queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_QUERY_KEY }),
      () => undefined,
    );
  }, [ids, queryClient]);
}
