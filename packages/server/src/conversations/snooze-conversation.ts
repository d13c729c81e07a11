import { randomUUID } from "node:crypto";
import type { ConversationSnooze, SnoozeConversationBody } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { AppError } from "../http/app-error.js";
import type { Services } from "../services.js";
import { lockConversationState } from "./conversation-state-repository.js";
import type { OperatorActor } from "./operator-actor.js";
import { clearSnooze, writeSnooze, type SnoozeChanged } from "./snooze-repository.js";

/** A snooze reaches at most this far ahead. */
const MAX_SNOOZE_MS = 366 * 24 * 60 * 60 * 1000;

const notFound = () => new AppError("conversation_not_found", "No conversation of this workspace has this id.");

/** `until` as a time in the future (at most a year ahead), or null for `visitor_reply`; 422 naming `until` otherwise. */
function snoozeTimeOf(until: SnoozeConversationBody["until"], now: Date): Date | null {
  if (until === "visitor_reply") return null;
  const time = new Date(until);
  const refuse = (reason: string) => new AppError("validation_failed", `The snooze is invalid (until: ${reason}).`, { until: [reason] });
  if (!Number.isFinite(time.getTime())) throw refuse("must be a real date and time");
  if (time.getTime() <= now.getTime()) throw refuse("must be in the future");
  if (time.getTime() - now.getTime() > MAX_SNOOZE_MS) throw refuse("must be at most a year ahead");
  return time;
}

/** `conversation.snoozed`, raised in the change's transaction. */
export async function raiseSnoozeChanged(
  services: Services,
  tx: Queryable,
  conversationId: string,
  changed: SnoozeChanged,
  snooze: { snoozed: boolean; until: string | null; cause: "snoozed" | "unsnoozed" | "time" | "visitor_message" },
): Promise<void> {
  await services.events.raise(tx, {
    type: "conversation.snoozed",
    conversation: { workspaceId: changed.workspaceId, agentId: changed.agentId, conversationId, visitorId: changed.visitorId },
    snoozed: snooze.snoozed,
    snoozedUntil: snooze.until,
    cause: snooze.cause,
    at: services.now().toISOString(),
  });
}

/**
 * POST /console/conversations/{id}/snooze: the conversation leaves the inbox's open view until
 * `until` or until the visitor writes, whichever comes first (a snooze given again replaces the
 * previous one). A timed snooze schedules its wake-up job in the same transaction, naming this
 * snooze, so the job of a snooze ended or replaced meanwhile finds another and does nothing. Any
 * operator of the workspace may snooze an open conversation; a closed one is 409.
 */
export async function snoozeConversation(services: Services, actor: OperatorActor, conversationId: string, body: SnoozeConversationBody): Promise<ConversationSnooze> {
  const until = snoozeTimeOf(body.until, services.now());
  return services.db.transaction(async (tx) => {
    const state = await lockConversationState(tx, actor.workspaceId, conversationId);
    if (!state) throw notFound();
    if (state.status === "closed") throw new AppError("conversation_closed", "The conversation is closed.");
    const snoozeId = randomUUID();
    await writeSnooze(tx, conversationId, { snoozeId, until });
    if (until) await services.jobs.send("wake-snoozed-conversation", { workspaceId: actor.workspaceId, conversationId, snoozeId }, tx, { startAfter: until });
    const snooze = { until: until?.toISOString() ?? null };
    await raiseSnoozeChanged(services, tx, conversationId, state, { snoozed: true, until: snooze.until, cause: "snoozed" });
    return snooze;
  });
}

/** DELETE /console/conversations/{id}/snooze: back in the open view now; one not snoozed stays as it is. */
export async function unsnoozeConversation(services: Services, actor: OperatorActor, conversationId: string): Promise<void> {
  await services.db.transaction(async (tx) => {
    const state = await lockConversationState(tx, actor.workspaceId, conversationId);
    if (!state) throw notFound();
    const changed = await clearSnooze(tx, actor.workspaceId, conversationId);
    if (changed) await raiseSnoozeChanged(services, tx, conversationId, changed, { snoozed: false, until: null, cause: "unsnoozed" });
  });
}
