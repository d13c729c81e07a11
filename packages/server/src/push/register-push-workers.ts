import type { Logger } from "pino";
import type { HostResolver } from "../network/guarded-agent.js";
import type { Services } from "../services.js";
import { registerPushMetrics } from "./push-metrics.js";
import { createPushServices } from "./push-services.js";
import { sendPushAlert } from "./send-push-alert.js";

/**
 * Starts this process's push workers (`FRONTDESK_PUSH_CONCURRENCY`). close() after the job queue
 * has stopped (its handlers finished), before the store closes.
 */
export async function registerPushWorkers(services: Services, logger: Logger, options: { resolve?: HostResolver } = {}): Promise<{ close(): Promise<void> }> {
  const push = await createPushServices(services.config, options);
  const context = {
    db: services.db,
    jobs: services.jobs,
    push,
    settings: services.config.push,
    publicUrl: services.config.publicUrl,
    metrics: registerPushMetrics(services.metrics),
    logger,
    now: services.now,
  };
  let closing = false;
  if (services.config.push.concurrency > 0) {
    await services.jobs.work("send-push", services.config.push.concurrency, async (payload) => {
      // Picked up while the process stops: left to pg-boss's retry rather than counted as the push service's failure.
      if (closing) throw new Error("push workers are stopping");
      await sendPushAlert(context, payload);
    });
  }
  return {
    async close() {
      closing = true;
      await push.close();
    },
  };
}
