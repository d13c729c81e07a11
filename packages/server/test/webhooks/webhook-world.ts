import { pino } from "pino";
import { registerWebhookWorkers } from "../../src/webhooks/register-webhook-workers.js";
import { seedConsoleCast } from "../support/console-session.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import type { StoreKind } from "../support/test-database.js";
import { LoopbackReceiver } from "./loopback-receiver.js";

export interface WebhookWorld {
  t: TestApp;
  cast: Awaited<ReturnType<typeof seedConsoleCast>>;
  receiver: LoopbackReceiver;
  close(): Promise<void>;
}

/**
 * A real service with its webhook workers delivering to a real receiver on loopback (every host
 * name resolves to it, and only it is allowed), and the console cast: what the webhook tests share.
 */
export async function startWebhookWorld(kind: StoreKind, environment: Record<string, string>): Promise<WebhookWorld> {
  const receiver = new LoopbackReceiver();
  await receiver.start();
  const t = await createTestApp(kind, { FRONTDESK_WEBHOOK_ALLOWED_NETWORKS: "127.0.0.1", ...environment });
  const cast = await seedConsoleCast(t);
  const workers = await registerWebhookWorkers(t.services, pino({ level: "silent" }), { resolve: async () => [{ address: "127.0.0.1", family: 4 }] });
  return {
    t,
    cast,
    receiver,
    async close() {
      receiver.release();
      await workers.close();
      await t.close();
      await receiver.close();
    },
  };
}
