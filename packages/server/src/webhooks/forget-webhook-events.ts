import { setTimeout as delay } from "node:timers/promises";
import type { Queryable } from "../db/database.js";
import { countUnderWay, settleDeliveriesOfErasedEvents } from "./webhook-delivery-repository.js";
import { deleteWebhookEvents, findWebhookEventsAbout, type ErasedSubjects } from "./webhook-event-repository.js";

/**
 * Erasure's (and retention's) part in webhooks, in its transaction: the events about the visitors or
 * conversations are deleted, so that no attempt of them is made after the commit; the attempts not
 * yet made are `skipped`; the receivers' answers to every attempt are cleared. Returns the attempts
 * under way, to wait for after the commit (waitForAttemptsToStop). The attempts' rows are locked
 * before the events, the order an attempt's claim and completion take.
 */
export async function forgetWebhookEventsAbout(tx: Queryable, workspaceId: string, subjects: ErasedSubjects): Promise<string[]> {
  const eventIds = await findWebhookEventsAbout(tx, workspaceId, subjects);
  if (eventIds.length === 0) return [];
  const underWay = await settleDeliveriesOfErasedEvents(tx, workspaceId, eventIds);
  await deleteWebhookEvents(tx, workspaceId, eventIds);
  return underWay;
}

/**
 * Waits, after an erasure's commit, until the attempts that were under way have stopped: each polls
 * its event, finds it gone and aborts its request within a few hundred milliseconds, so that nothing
 * of the visitor is sent once erasure has answered. Only attempts whose lease has not ended count:
 * one whose process died stops counting when its lease ends (the longest timeout, 60 s, and the
 * grace), and sends nothing more anyway.
 */
export async function waitForAttemptsToStop(db: Queryable, deliveryIds: readonly string[], limitMs = 70_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (deliveryIds.length > 0 && Date.now() < deadline) {
    if ((await countUnderWay(db, deliveryIds)) === 0) return;
    await delay(50);
  }
}
