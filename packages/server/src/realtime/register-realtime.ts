import type { FastifyInstance } from "fastify";
import { AppError } from "../http/app-error.js";
import { rawErrorResponse } from "../http/framework-errors.js";
import { broadcastsOf } from "./bus-channels.js";
import { pusherApiRoutes } from "./http/routes.js";

/**
 * The embedded realtime server on the service's own port: WebSocket upgrades on `/app/{key}`
 * and the Pusher HTTP API under `/apps/{id}`. Every bus event is broadcast as bus-channels.ts
 * maps it. Its sockets close (4200) before the HTTP server does.
 */
export async function registerRealtime(app: FastifyInstance): Promise<void> {
  const realtime = app.services.realtime;
  app.server.on("upgrade", (request, socket, head) => {
    // A throw here would be uncaught and stop the whole service: whatever goes wrong ends this socket only.
    try {
      if (realtime.handleUpgrade(request, socket, head)) return;
      socket.end(rawErrorResponse(new AppError("not_found", "No WebSocket endpoint at this path (the realtime server is at /app/{app_key}).")));
    } catch (error) {
      app.log.error({ err: error, url: request.url }, "WebSocket upgrade failed");
      socket.destroy();
    }
  });
  const stopBroadcasting = app.services.bus.subscribe((event) => {
    for (const { channel, event: name, payload } of broadcastsOf(event)) {
      realtime.publish({ channels: [channel], event: name, data: JSON.stringify(payload) }).catch((error: unknown) => {
        app.log.error({ err: error, channel, event: name }, "realtime broadcast failed");
      });
    }
  });
  app.addHook("preClose", async () => {
    stopBroadcasting();
    await realtime.close();
  });
  await app.register(pusherApiRoutes);
}
