import { NOTIFICATION_PAGE_DEFAULT, type ConsoleNotification } from "@frontdesk/contracts";
import { countUnreadInbox, listInboxPage, type InboxNotification } from "../inbox/notifications.js";
import type { Services } from "../services.js";
import type { SignedInOperator } from "./authenticate-operator.js";
import { decodeCursor, encodeCursor } from "../paging/page-cursor.js";

export const presentConsoleNotification = (notification: InboxNotification): ConsoleNotification => ({
  id: notification.id,
  kind: notification.kind,
  conversation_id: notification.conversationId,
  payload: notification.payload,
  read_at: notification.readAt,
  created_at: notification.createdAt,
});

/** GET /console/notifications: a page of the operator's own inbox, unread first, then newest; and how many are unread. */
export async function listNotifications(services: Services, operator: SignedInOperator, query: { cursor?: string | undefined; limit?: number | undefined }) {
  const limit = query.limit ?? NOTIFICATION_PAGE_DEFAULT;
  const page: Parameters<typeof listInboxPage>[2] = { limit: limit + 1 };
  if (query.cursor) {
    const [read, createdMicroseconds, id] = decodeCursor(query.cursor, ["flag", "us", "id"] as const);
    page.after = { read, createdMicroseconds, id };
  }
  const [rows, unread] = await Promise.all([listInboxPage(services.db, operator, page), countUnreadInbox(services.db, operator)]);
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return {
    data: shown.map((row) => presentConsoleNotification(row.notification)),
    next_cursor: rows.length > limit && last ? encodeCursor([last.read, last.createdMicroseconds, last.notification.id]) : null,
    unread_count: unread,
  };
}
