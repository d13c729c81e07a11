import type { Logger } from "pino";
import type { Config } from "../config/config.js";
import { createRedisChannelOccupancy } from "./adapters/redis-channel-occupancy.js";
import { createRedisConnectionQuota } from "./adapters/redis-connection-quota.js";
import { redisFanOutAdapter } from "./adapters/redis-adapter.js";
import { RedisRealtimeNode } from "./adapters/redis-realtime-node.js";
import { createRedisPresenceStore } from "./presence/redis-presence-store.js";
import { createRealtimeServer, type RealtimeServer } from "./realtime-server.js";

export type EmbeddedRealtimeConfig = Pick<Config, "realtime" | "redisUrl" | "redisPrefix" | "realtimeNodeExpirySeconds">;

/**
 * The embedded realtime server as the configuration asks for it: alone in this process, or, with
 * FRONTDESK_REDIS_URL, one node of a deployment sharing through Redis its events and channel
 * rights (pub/sub), its presence members, its subscription counts and its sockets per client
 * address (each reported to /healthz on its own) (a node that stops beating for
 * FRONTDESK_REALTIME_NODE_EXPIRY_SECONDS is swept, and its members removed).
 */
export function createEmbeddedRealtime(config: EmbeddedRealtimeConfig, appSecret: string, logger: Logger): RealtimeServer {
  const onError = (error: unknown) => logger.error({ err: error }, "realtime message handling failed");
  if (!config.redisUrl) return createRealtimeServer(config.realtime, appSecret, { onError });
  const node = new RedisRealtimeNode({
    url: config.redisUrl,
    prefix: config.redisPrefix,
    expirySeconds: config.realtimeNodeExpirySeconds,
    logger,
  });
  const server = createRealtimeServer(config.realtime, appSecret, {
    adapter: redisFanOutAdapter({ url: config.redisUrl, prefix: config.redisPrefix, logger }),
    presence: (announce) => createRedisPresenceStore(node, announce),
    occupancy: (local) => createRedisChannelOccupancy(node, local),
    quota: (maxPerAddress) => createRedisConnectionQuota(node, maxPerAddress),
    sharing: (adapter) => {
      // Presence and counts (the node's connection) and events (the fan-out's two): shared only while all answer.
      const presence = node.unavailableReason;
      const events = adapter.status();
      if (presence === null && events.up) return { shared: true, degraded: false };
      // One reason for /healthz: the node's says everything is this process's own; else the fan-out's, events only.
      return { shared: false, degraded: true, reason: presence ?? events.reason ?? "realtime: events do not reach the other processes" };
    },
    onError,
  });
  void node.start();
  return server;
}
