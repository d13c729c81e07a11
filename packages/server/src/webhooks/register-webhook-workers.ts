import type { Logger } from "pino";
import type { HostResolver } from "../network/guarded-agent.js";
import type { Services } from "../services.js";
import { deliverWebhook } from "./deliver-webhook.js";
import { createWebhookServices } from "./webhook-services.js";

/**
 * Starts this process's webhook delivery workers (`FRONTDESK_WEBHOOK_CONCURRENCY`). close() after
 * the job queue has stopped (its handlers finished), before the store closes.
 */
export async function registerWebhookWorkers(services: Services, logger: Logger, options: { resolve?: HostResolver } = {}): Promise<{ close(): Promise<void> }> {
  const webhooks = await createWebhookServices(services.config, options);
  const context = { db: services.db, jobs: services.jobs, transport: webhooks.transport, secrets: webhooks.secrets, settings: services.config.webhooks, now: services.now };
  let closing = false;
  if (services.config.webhooks.concurrency > 0) {
    await services.jobs.work("deliver-webhook", services.config.webhooks.concurrency, async (payload) => {
      // Picked up while the process stops: left to pg-boss's retry rather than recorded as a failure of the receiver.
      if (closing) throw new Error("webhook workers are stopping");
      try {
        await deliverWebhook(context, payload);
      } catch (error) {
        logger.warn({ err: error, endpointId: payload.endpointId, eventId: payload.eventId }, "webhook delivery could not be recorded");
        throw error;
      }
    });
  }
  return {
    async close() {
      closing = true;
      await webhooks.close();
    },
  };
}
