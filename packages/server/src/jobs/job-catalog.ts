import { z } from "zod";

/** Retry policy of a job: pg-boss retries with exponential back-off from `retryDelaySeconds`. */
export interface RetryPolicy {
  retryLimit: number;
  retryDelaySeconds: number;
  expireInSeconds: number;
}

/** Every background job: its name, its payload schema (parsed when a worker picks it) and its retry policy. */
export const jobCatalog = {
  "index-source": {
    payload: z.object({ sourceId: z.string().min(1) }),
    retry: { retryLimit: 4, retryDelaySeconds: 5, expireInSeconds: 15 * 60 },
  },
  /** Some pages of a sitemap (`documentIds`, ingest/index-page-job.ts), or one (`documentId`: the Include switch, and jobs queued before pages were batched). */
  "index-page": {
    payload: z.object({
      sourceId: z.string().min(1),
      documentId: z.number().int().positive().optional(),
      documentIds: z.array(z.number().int().positive()).min(1).max(100).optional(),
    }),
    retry: { retryLimit: 4, retryDelaySeconds: 5, expireInSeconds: 30 * 60 },
  },
  "reembed-document": {
    payload: z.object({ documentId: z.number().int().positive() }),
    retry: { retryLimit: 4, retryDelaySeconds: 5, expireInSeconds: 5 * 60 },
  },
  /**
   * One batch of a workspace's re-embedding (ingest/embedding-generations/): the batch's vectors
   * and the next batch's job are written in one transaction, so a restart resumes where it stopped
   * and a job run twice copies nothing twice. The last batch switches the workspace to the new vectors.
   */
  "reembed-workspace": {
    payload: z.object({ workspaceId: z.string().min(1), generationId: z.string().min(1) }),
    retry: { retryLimit: 4, retryDelaySeconds: 5, expireInSeconds: 10 * 60 },
  },
  /** Deletes a workspace's vectors of an embedder it no longer uses (after a switch, or of a superseded re-embedding), in batches. */
  "retire-embedder": {
    payload: z.object({ workspaceId: z.string().min(1), embedderId: z.string().min(1) }),
    retry: { retryLimit: 4, retryDelaySeconds: 5, expireInSeconds: 10 * 60 },
  },
  /** A WordPress push's posts (src/wordpress/): each read from its row and indexed like a crawled page. */
  "index-wordpress-posts": {
    payload: z.object({ sourceId: z.string().min(1), documentIds: z.array(z.number().int().positive()).min(1).max(100) }),
    retry: { retryLimit: 4, retryDelaySeconds: 5, expireInSeconds: 15 * 60 },
  },
  /** The re-sync scheduler's tick (sources/enqueue-due-resyncs.ts), every minute: enqueues the due sources' `index-source` jobs. Overlapping ticks claim disjoint sources. */
  "schedule-resyncs": {
    payload: z.object({}),
    retry: { retryLimit: 1, retryDelaySeconds: 10, expireInSeconds: 5 * 60 },
  },
  /** The retention purge (privacy/purge-stale-conversations.ts), scheduled hourly by the workers; runs may overlap safely (rows held by one are skipped by the other). */
  "purge-retention": {
    payload: z.object({}),
    retry: { retryLimit: 2, retryDelaySeconds: 60, expireInSeconds: 30 * 60 },
  },
  /**
   * One attempt to deliver one event to one webhook endpoint (src/webhooks/deliver-webhook.ts). The
   * payload names the event; its body lives in `webhook_events`, where erasure can reach it, so no
   * job, queued or completed, holds a visitor's data. The handler schedules the next attempt itself
   * (its back-off is FRONTDESK_WEBHOOK_*), so pg-boss's own retry only covers a worker that died mid-attempt.
   */
  "deliver-webhook": {
    payload: z.object({
      endpointId: z.string().min(1),
      workspaceId: z.string().min(1),
      deliveryId: z.string().min(1),
      attempt: z.number().int().positive(),
      eventId: z.string().min(1),
    }),
    retry: { retryLimit: 2, retryDelaySeconds: 30, expireInSeconds: 5 * 60 },
  },
  /**
   * One attempt to send one mail (src/mail/send-mail.ts). The payload names the mail; its recipient
   * and bodies live in `mail_messages`, where erasure reaches them. The handler schedules the next
   * attempt itself (FRONTDESK_MAIL_*), so pg-boss's own retry only covers a worker that died mid-attempt.
   */
  "send-mail": {
    payload: z.object({ mailId: z.string().min(1), workspaceId: z.string().min(1), attempt: z.number().int().positive() }),
    retry: { retryLimit: 2, retryDelaySeconds: 30, expireInSeconds: 10 * 60 },
  },
  /**
   * A decision e-mail takes later (mail/run-mail-check.ts): are the workspace's operators away from a
   * visitor who asks for a person; has the visitor seen an operator's reply, or the assignee a
   * visitor's message, FRONTDESK_EMAIL_UNSEEN_DELAY_SECONDS after it was written. The payload names the
   * check; its conversation lives in `mail_checks`, where erasure reaches it.
   */
  "mail-check": {
    payload: z.object({ workspaceId: z.string().min(1), checkId: z.string().min(1) }),
    retry: { retryLimit: 3, retryDelaySeconds: 10, expireInSeconds: 5 * 60 },
  },
  /** The hourly digest (mail/send-mail-digests.ts): each operator who chose it gets their gathered alerts in one mail. */
  "send-mail-digests": {
    payload: z.object({}),
    retry: { retryLimit: 2, retryDelaySeconds: 60, expireInSeconds: 15 * 60 },
  },
  /**
   * One attempt to send one alert to one operator's device (src/push/send-push-alert.ts). Ids only:
   * the subscription, its operator and the conversation are read again when it is sent, so an
   * operator removed or signed out everywhere meanwhile gets nothing. The handler schedules the
   * next attempt itself (FRONTDESK_PUSH_*); pg-boss's retry covers a worker that died mid-attempt.
   */
  "send-push": {
    payload: z.object({
      subscriptionId: z.string().min(1),
      workspaceId: z.string().min(1),
      conversationId: z.string().min(1),
      attempt: z.number().int().positive(),
      /** A mention in this note (its operator's devices); absent: a human request. */
      noteId: z.string().min(1).optional(),
    }),
    retry: { retryLimit: 2, retryDelaySeconds: 30, expireInSeconds: 5 * 60 },
  },
  /**
   * Runs an agent's queued answer tests (answer-tests/run-answer-tests.ts). Names the agent only: the
   * run is the agent's one queued run, which any number of changes may have joined meanwhile. A job
   * finding another run of the agent under way sends itself again later.
   */
  "run-answer-tests": {
    payload: z.object({ workspaceId: z.string().min(1), agentId: z.string().min(1) }),
    retry: { retryLimit: 2, retryDelaySeconds: 30, expireInSeconds: 30 * 60 },
  },
  /**
   * A snoozed conversation's time came (conversations/wake-snoozed-conversation.ts): sent with
   * `startAfter` in the transaction that snoozes it, naming that snooze; one ended, replaced or
   * woken by the visitor meanwhile is left alone, so a run twice or late does nothing.
   */
  "wake-snoozed-conversation": {
    payload: z.object({ workspaceId: z.string().min(1), conversationId: z.string().min(1), snoozeId: z.string().min(1) }),
    retry: { retryLimit: 3, retryDelaySeconds: 10, expireInSeconds: 60 },
  },
} as const satisfies Record<string, { payload: z.ZodType; retry: RetryPolicy }>;

export type JobName = keyof typeof jobCatalog;
export type JobPayload<Name extends JobName> = z.infer<(typeof jobCatalog)[Name]["payload"]>;
