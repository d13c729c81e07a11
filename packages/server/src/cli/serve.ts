import type { Server } from "node:net";
import type { FastifyInstance } from "fastify";
import type { Logger } from "pino";
import { listenAdminSocket } from "../admin/admin-socket.js";
import { buildApp } from "../app.js";
import type { Config } from "../config/config.js";
import { closeServices, createServices } from "../runtime.js";
import { startWorkers } from "./start-workers.js";
import { lowerOtherThreadsPriority } from "../event-loop/thread-priority.js";
import { listenForMetrics } from "../observability/metrics-listener.js";
import { announceFirstRunSetup } from "../console/setup/issue-setup-link.js";
import { createWebhookServices } from "../webhooks/webhook-services.js";
import { openModelProviderAccess } from "../answering/generate/create-answer-models.js";
import { identitySecretBoxOf } from "../tenants/identity-secret-box.js";

/**
 * Stops cleanly on SIGINT/SIGTERM: `stop` runs once, then the process exits. A repeated signal is
 * ignored rather than fatal: Ctrl-C under `npm start` arrives twice (from the terminal, and
 * forwarded by npm), and the second must not cut the graceful stop short (20 s at most).
 */
export function onShutdown(logger: Logger, stop: () => Promise<void>): void {
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, "shutting down");
    const force = setTimeout(() => process.exit(1), 20_000);
    force.unref();
    try {
      await stop();
    } catch (error) {
      logger.error({ err: error }, "stop failed");
      process.exit(1);
    }
    logger.info("stopped");
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

/** `frontdesk serve`: the HTTP API, the admin socket and the background workers, in one process. */
export async function serve(config: Config, logger: Logger): Promise<void> {
  // Before any thread of ours starts: V8's helpers (garbage collection) and libuv's pool yield to the event loop.
  const lowered = lowerOtherThreadsPriority();
  logger.debug({ threads: lowered }, "threads other than the event loop's lowered to nice 10");
  const services = await createServices(config, logger);
  let adminSocket: Server | null = null;
  let pipeline: { close(): Promise<void> } | null = null;
  let app: FastifyInstance | null = null;
  try {
    if (config.adminSocket) adminSocket = await listenAdminSocket(
        {
          db: services.db,
          jobs: async () => services.jobs,
          onAgentChanged: (agentId) => services.sessionCache.forgetAgent(agentId),
          publish: (event) => services.bus.publish(event),
          publicUrl: config.publicUrl,
          now: services.now,
          webhooks: () => createWebhookServices(config),
          modelProviders: () => openModelProviderAccess(config),
          identitySecrets: () => identitySecretBoxOf(config),
          events: async () => services.events,
          answerTests: async () => ({ ...services, close: async () => undefined }),
          embedders: async () => services.embedders,
        },
        config.dataDir,
      );
    if (config.workers.concurrency > 0) pipeline = await startWorkers(services, logger);
    const http = (app = await buildApp(services, { loggerInstance: logger.child({ component: "http" }) }));
    // Signals are handled before "listening" is logged: whoever waits for that line may stop us at
    // once, even while the first-run link is being issued (the stop lets that finish first).
    let announcing: Promise<unknown> = Promise.resolve();
    onShutdown(logger, async () => {
      adminSocket?.close();
      await http.close();
      await announcing;
      await pipeline?.close();
      await closeServices(services);
    });
    const url = await http.listen({ host: config.http.host, port: config.http.port });
    logger.info(
      { url, store: services.db.kind, rateLimiter: services.limiter.backend },
      "Frontdesk is listening",
    );
    announcing = announceFirstRunSetup(services.db, { publicUrl: config.publicUrl, now: services.now(), logger }).catch((error: unknown) =>
      logger.error({ err: error }, "the first-run setup link could not be issued"),
    );
    await announcing;
  } catch (error) {
    // A start that fails half-way (an occupied port …) closes what it opened, so the process can exit.
    adminSocket?.close();
    await app?.close().catch(() => undefined);
    await pipeline?.close();
    await closeServices(services);
    throw error;
  }
}

/** `frontdesk worker`: background workers only, so more machines can share the indexing load (Postgres only). */
export async function work(config: Config, logger: Logger): Promise<void> {
  const services = await createServices(config, logger);
  let pipeline: { close(): Promise<void> } | null = null;
  try {
    const workers = (pipeline = await startWorkers(services, logger));
    // No HTTP API here: FRONTDESK_METRICS_PORT gives this process a /metrics of its own.
    const metrics = config.metricsPort === undefined ? null : await listenForMetrics(services, config.http.host, config.metricsPort, logger);
    onShutdown(logger, async () => {
      await metrics?.close();
      await workers.close();
      await closeServices(services);
    });
  } catch (error) {
    await pipeline?.close();
    await closeServices(services);
    throw error;
  }
}
