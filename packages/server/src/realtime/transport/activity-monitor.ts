import { PusherErrorCode } from "../protocol/pusher-error-codes.js";
import { serverFrames } from "../protocol/server-frames.js";
import type { SocketConnection } from "./socket-connection.js";

export interface ActivityTimeouts {
  activityTimeoutSeconds: number;
  pongTimeoutSeconds: number;
}

/**
 * Pings a client silent for the activity timeout, and closes it with 4201 when it has not
 * answered within the pong timeout. One timer for all connections, not one per socket.
 */
export function startActivityMonitor(connections: () => Iterable<SocketConnection>, timeouts: ActivityTimeouts): { stop(): void } {
  const activityMs = timeouts.activityTimeoutSeconds * 1000;
  const pongMs = timeouts.pongTimeoutSeconds * 1000;
  const tickMs = Math.max(50, Math.min(1000, activityMs / 4, pongMs / 4));
  const timer = setInterval(() => {
    const now = Date.now();
    for (const connection of connections()) {
      if (connection.pingSentAt !== null) {
        if (now - connection.pingSentAt >= pongMs) connection.close(PusherErrorCode.pongNotReceived, "Pong reply not received");
      } else if (now - connection.lastActivityAt >= activityMs) {
        connection.pingSentAt = now;
        connection.send(serverFrames.ping());
      }
    }
  }, tickMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
