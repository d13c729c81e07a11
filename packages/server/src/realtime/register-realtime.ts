import type { FastifyInstance } from "fastify";
import { AppError } from "../http/app-error.js";
import { rawErrorResponse } from "../http/framework-errors.js";
import { registerRealtimeMetrics } from "../observability/realtime-metrics.js";
import { broadcastsOf, revocationOf } from "./bus-channels.js";
import { pusherApiRoutes } from "./http/routes.js";
import type { RealtimeServer } from "./realtime-server.js";

/**
 * The service's realtime layer: every bus event is published as bus-channels.ts maps it, through
 * whichever driver is configured, and the subscriptions it ends are revoked. With the embedded server this process also serves the
 * WebSockets (`/app/{key}`) and the Pusher HTTP API (`/apps/{id}`) on its own port; with an
 * external server it serves neither, and an upgrade is told where to go instead.
 */
export async function registerRealtime(app: FastifyInstance): Promise<void> {
  const { realtime, bus, metrics, now } = app.services;
  registerRealtimeMetrics(metrics, () => realtime.connectionCount);
  const stopBroadcasting = bus.subscribe((event) => {
    const published = broadcastsOf(event).map(({ channel, event: name, payload }) =>
      realtime.publish({ channels: [channel], event: name, data: JSON.stringify(payload) }).catch((error: unknown) => {
        app.log.error({ err: error, channel, event: name }, "realtime broadcast failed");
      }),
    );
    const revocation = revocationOf(event);
    if (!revocation || revocation.principals.length === 0) return;
    // After the event's own broadcasts (a deleted conversation's `conversation.deleted` reaches its subscribers first).
    void Promise.all(published)
      .then(() => realtime.revoke(revocation))
      .catch((error: unknown) => app.log.error({ err: error, event: event.type }, "realtime revocation failed"));
  });
  app.addHook("preClose", async () => {
    stopBroadcasting();
    await realtime.close();
  });
  if (realtime.embedded) {
    await attachRealtimeServer(app, realtime.embedded, now);
    return;
  }
  refuseUpgrades(app, "This service does not serve WebSockets (FRONTDESK_REALTIME_DRIVER is pusher): connect to the realtime server that init's `reverb` names.");
}

/**
 * Serves the embedded server on `app`'s HTTP server: WebSocket upgrades on `/app/{key}` and the
 * Pusher HTTP API under `/apps/{id}`. Its sockets close (4200) before the HTTP server does.
 */
export async function attachRealtimeServer(app: FastifyInstance, server: RealtimeServer, now: () => Date): Promise<void> {
  app.server.on("upgrade", (request, socket, head) => {
    // A throw here would be uncaught and stop the whole service: whatever goes wrong ends this socket only.
    try {
      if (server.handleUpgrade(request, socket, head)) return;
      socket.end(rawErrorResponse(new AppError("not_found", "No WebSocket endpoint at this path (the realtime server is at /app/{app_key}).")));
    } catch (error) {
      app.log.error({ err: error, url: request.url }, "WebSocket upgrade failed");
      socket.destroy();
    }
  });
  app.addHook("preClose", () => server.close());
  await app.register(pusherApiRoutes, { server, now });
}

/** Every WebSocket upgrade is answered `message` (404, in our error shape). */
function refuseUpgrades(app: FastifyInstance, message: string): void {
  app.server.on("upgrade", (_request, socket) => {
    socket.on("error", () => undefined);
    socket.end(rawErrorResponse(new AppError("not_found", message)));
  });
}
