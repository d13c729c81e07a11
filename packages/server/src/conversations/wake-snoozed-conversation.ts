import type { Queryable } from "../db/database.js";
import type { JobPayload } from "../jobs/job-catalog.js";
import type { Services } from "../services.js";
import { raiseSnoozeChanged } from "./snooze-conversation.js";
import { clearDueSnooze, clearSnooze, findSnooze } from "./snooze-repository.js";

/**
 * The `wake-snoozed-conversation` job: the snooze it names ends if its time has come (the service's
 * clock), and the consoles are told. Idempotent: a snooze already ended, replaced or woken by the
 * visitor is another or none, and nothing happens. A job run early (a clock ahead of the service's)
 * sends itself again for the snooze's time.
 */
export async function wakeSnoozedConversation(services: Services, payload: JobPayload<"wake-snoozed-conversation">): Promise<"woken" | "not_due" | "nothing"> {
  const { workspaceId, conversationId, snoozeId } = payload;
  return services.db.transaction(async (tx) => {
    const changed = await clearDueSnooze(tx, workspaceId, conversationId, snoozeId, services.now());
    if (changed) {
      await raiseSnoozeChanged(services, tx, conversationId, changed, { snoozed: false, until: null, cause: "time" });
      return "woken";
    }
    const pending = await findSnooze(tx, workspaceId, conversationId);
    if (pending?.snoozeId !== snoozeId || pending.until === null) return "nothing";
    await services.jobs.send("wake-snoozed-conversation", payload, tx, { startAfter: new Date(pending.until) });
    return "not_due";
  });
}

/** In the transaction storing a visitor's message: their message ends the conversation's snooze, if any. */
export async function wakeOnVisitorMessage(services: Services, tx: Queryable, conversation: { workspaceId: string; id: string }): Promise<void> {
  const changed = await clearSnooze(tx, conversation.workspaceId, conversation.id);
  if (changed) await raiseSnoozeChanged(services, tx, conversation.id, changed, { snoozed: false, until: null, cause: "visitor_message" });
}
