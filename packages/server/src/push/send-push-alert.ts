import type { Logger } from "pino";
import type { Counter } from "prom-client";
import { loadOnFirstUse } from "../startup/load-on-first-use.js";
import type { PushConfig } from "../config/push.js";
import { findConversationState } from "../conversations/conversation-states.js";
import type { Database } from "../db/database.js";
import type { JobPayload } from "../jobs/job-catalog.js";
import type { JobQueue } from "../jobs/job-queue.js";
import { conversationTopic, humanRequestAlert, mentionAlert } from "./push-alert.js";
import { findNote } from "../notes/notes.js";
import type { PushAlert } from "@frontdesk/contracts";
import type { PushOutcome } from "./push-metrics.js";
import { deletePushSubscription, findUsablePushSubscription, recordPushFailure, recordPushSuccess } from "./push-subscription-repository.js";
import type { PushServices } from "./push-services.js";

const loadWebPush = loadOnFirstUse(() => import("web-push"));

/** What sending needs. */
export interface PushSendContext {
  db: Database;
  jobs: JobQueue;
  push: PushServices;
  settings: PushConfig;
  publicUrl: string;
  metrics: Counter<"outcome">;
  logger: Logger;
  now: () => Date;
}

type SendPushPayload = JobPayload<"send-push">;

/** The wait before attempt `attempt + 1`: the base, doubled after each attempt. */
export function pushRetryDelayMs(settings: PushConfig, attempt: number): number {
  return settings.retryBaseMs * 2 ** (attempt - 1);
}

/**
 * One attempt (the `send-push` job). Rights are checked now, not when queued: the subscription and
 * its operator (with an account) must still exist, and the conversation must still wait for a
 * person (an alert about a conversation someone took is noise; a mention's note must still exist). web-push builds the request
 * (VAPID JWT for the endpoint's origin, the aes128gcm body, TTL, urgency high, a topic per
 * conversation); the guarded transport sends it. 404 or 410: the browser's subscription is gone,
 * its row deleted. 429, 5xx or a network failure: the next attempt is queued after the back-off
 * while attempts are left. Anything else (400, 403, 413 …) is recorded and not retried.
 */
export async function sendPushAlert(context: PushSendContext, payload: SendPushPayload): Promise<PushOutcome> {
  const log = context.logger.child({ subscriptionId: payload.subscriptionId, conversationId: payload.conversationId, attempt: payload.attempt });
  const outcome = await attemptSend(context, payload, log);
  context.metrics.inc({ outcome });
  return outcome;
}

/** What the device is told, read now: a human request still waiting, or a mention's note still there; null when neither. */
async function alertOf(context: PushSendContext, payload: SendPushPayload): Promise<PushAlert | null> {
  if (payload.noteId !== undefined) {
    const note = await findNote(context.db, payload.workspaceId, payload.noteId);
    if (!note || note.conversation_id !== payload.conversationId) return null;
    return mentionAlert({ id: note.id, conversationId: note.conversation_id, authorName: note.author.name, content: note.content }, context.publicUrl);
  }
  const conversation = await findConversationState(context.db, payload.workspaceId, payload.conversationId);
  if (!conversation || conversation.status !== "awaiting_human") return null;
  return humanRequestAlert({ id: conversation.id, reason: conversation.humanRequestReason }, context.publicUrl);
}

async function attemptSend(context: PushSendContext, payload: SendPushPayload, log: Logger): Promise<PushOutcome> {
  const { db, push, settings } = context;
  const subscription = await findUsablePushSubscription(db, payload.subscriptionId);
  if (!subscription || subscription.workspaceId !== payload.workspaceId) {
    log.info("push alert skipped: the subscription or its operator is gone");
    return "skipped";
  }
  const alert = await alertOf(context, payload);
  if (alert === null) {
    log.info(payload.noteId ? "push alert skipped: the note is gone" : "push alert skipped: the conversation no longer waits for a person");
    return "skipped";
  }
  const auth = push.secrets.open(subscription.authSealed, subscription.id);
  if (auth === null) {
    await recordPushFailure(db, subscription.id, context.now(), "the subscription's secret cannot be opened (was FRONTDESK_JWT_SECRET changed?): enable alerts on the device again");
    log.warn("push alert failed: the subscription's auth secret cannot be opened");
    return "failed";
  }
  const { default: webpush } = await loadWebPush();
  const request = webpush.generateRequestDetails({ endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth } }, JSON.stringify(alert), {
    vapidDetails: { subject: push.vapid.subject, publicKey: push.vapid.publicKey, privateKey: push.vapid.privateKey },
    TTL: settings.ttlSeconds,
    urgency: "high",
    // A mention has its own topic: it must not replace a human request's alert still undelivered.
    topic: conversationTopic(payload.noteId ?? payload.conversationId),
    contentEncoding: "aes128gcm",
  });
  const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), String(value)]));
  const response = await push.transport.send(subscription.endpoint, headers, request.body);
  const at = context.now();
  if (response.error === null) {
    await recordPushSuccess(db, subscription.id, at);
    log.info({ statusCode: response.statusCode, durationMs: response.durationMs }, "push alert accepted");
    return "accepted";
  }
  if (response.statusCode === 404 || response.statusCode === 410) {
    await deletePushSubscription(db, subscription.id);
    log.info({ statusCode: response.statusCode }, "push subscription gone: deleted");
    return "gone";
  }
  const retryable = response.statusCode === null ? !response.error.startsWith("refused") : response.statusCode === 429 || response.statusCode >= 500;
  if (retryable && payload.attempt < settings.attempts) {
    const next = new Date(at.getTime() + pushRetryDelayMs(settings, payload.attempt));
    await db.transaction(async (tx) => {
      await recordPushFailure(tx, subscription.id, at, response.error!);
      await context.jobs.send("send-push", { ...payload, attempt: payload.attempt + 1 }, tx, { startAfter: next });
    });
    log.warn({ statusCode: response.statusCode, error: response.error, retryAt: next.toISOString() }, "push alert failed: retrying");
    return "retry";
  }
  await recordPushFailure(db, subscription.id, at, response.error);
  log.warn({ statusCode: response.statusCode, error: response.error }, "push alert failed");
  return "failed";
}
