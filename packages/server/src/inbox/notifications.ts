/**
 * The inbox's notifications as the console and the CLI reach them: `inbox_notifications` is owned
 * by inbox/, whose repository alone holds its SQL.
 */
export { countUnreadInbox, deleteNotificationsOfConversations, listInboxPage, listOperatorInbox, markInboxRead, notifyOperators, notifyWorkspaceOperators } from "./inbox-repository.js";
export type { InboxNotification } from "./inbox-repository.js";
