import type { Server } from "node:net";
import { pino } from "pino";
import { listenAdminSocket } from "../admin/admin-socket.js";
import { buildApp } from "../app.js";
import type { Config } from "../config/config.js";
import { closeServices, createServices } from "../runtime.js";

/** `frontdesk serve`: the HTTP API, the admin socket and the background workers, in one process. */
export async function serve(config: Config): Promise<void> {
  const logger = pino({ level: config.logLevel, name: "frontdesk" });
  const services = await createServices(config, logger);
  let adminSocket: Server | null = null;
  try {
    if (config.adminSocket) adminSocket = await listenAdminSocket(services.db, config.dataDir);
    const app = await buildApp(services, { loggerInstance: logger.child({ component: "http" }) });
    await app.listen({ host: config.http.host, port: config.http.port });
    logger.info(
      { url: `http://${config.http.host}:${config.http.port}`, store: services.db.kind, rateLimiter: services.limiter.backend },
      "Frontdesk is listening",
    );

    let closing = false;
    const shutdown = async (signal: string) => {
      if (closing) return;
      closing = true;
      logger.info({ signal }, "shutting down");
      const force = setTimeout(() => process.exit(1), 15_000);
      force.unref();
      adminSocket?.close();
      await app.close();
      await closeServices(services);
      logger.info("stopped");
      process.exit(0);
    };
    process.once("SIGINT", () => void shutdown("SIGINT"));
    process.once("SIGTERM", () => void shutdown("SIGTERM"));
  } catch (error) {
    adminSocket?.close();
    await closeServices(services);
    throw error;
  }
}
