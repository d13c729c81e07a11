import type { FastifyInstance } from "fastify";
import { AppError } from "./app-error.js";

/**
 * Once the service starts closing, a request that still arrives (on a kept-alive connection, or
 * one whose headers were under way) is refused with 503 `service_unavailable` in our shape, where
 * Fastify's own `return503OnClosing` (turned off in server-options.ts) would answer in its own.
 * Requests already running finish normally.
 */
export function refuseRequestsWhileClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  app.addHook("onRequest", async () => {
    if (closing) throw new AppError("service_unavailable", "The service is shutting down. Please retry.");
  });
}
