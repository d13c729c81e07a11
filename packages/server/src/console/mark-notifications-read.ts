import { countUnreadInbox, markInboxRead } from "../inbox/notifications.js";
import type { Services } from "../services.js";
import type { SignedInOperator } from "./authenticate-operator.js";

/**
 * POST /console/notifications/read: marks the operator's own notifications read, the given `ids`
 * or `all`. Ids that are unknown, already read or another operator's are skipped without an error
 * (a notification may vanish with its conversation; marking read twice is harmless): `marked` counts
 * what changed.
 */
export async function markNotificationsRead(services: Services, operator: SignedInOperator, body: { ids?: string[] | undefined; all?: true | undefined }) {
  const marked = await markInboxRead(services.db, operator, body.ids ? { ids: body.ids } : { all: true });
  return { marked, unread_count: await countUnreadInbox(services.db, operator) };
}
