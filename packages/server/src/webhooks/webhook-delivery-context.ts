import type { WebhookConfig } from "../config/webhooks.js";
import type { Database } from "../db/database.js";
import type { JobQueue } from "../jobs/job-queue.js";
import type { WebhookSecretBox } from "./webhook-secret-box.js";
import type { WebhookTransport } from "./webhook-transport.js";

/** What a delivery worker works with: the store, the queue, the guarded client, the secrets' seal, the settings and the clock. */
export interface WebhookDeliveryContext {
  db: Database;
  jobs: JobQueue;
  transport: WebhookTransport;
  secrets: WebhookSecretBox;
  settings: WebhookConfig;
  now: () => Date;
}
