import type { ChannelOccupancy } from "../channels/channel-occupancy.js";
import type { LocalChannels } from "../channels/local-channels.js";
import { RedisUnavailableError, type RedisRealtimeNode } from "./redis-realtime-node.js";
import { runScript, scripts } from "./redis-realtime-scripts.js";

/**
 * Subscription counts shared through Redis: each process keeps its own per channel under its node,
 * and a count is this process's own plus those of every other live node (a node past the expiry is
 * left out even before it is swept). While Redis is unreachable the counts are this process's
 * own; when it answers again (or this node was swept) they are rewritten from the local ones.
 */
export function createRedisChannelOccupancy(node: RedisRealtimeNode, local: LocalChannels): ChannelOccupancy {
  const count = async (channel: string, delta: 1 | -1) => {
    try {
      await node.call(scripts.countOnNode, [node.keys.nodes, node.keys.nodeSubscriptions(node.id)], [node.id, channel, delta], false);
    } catch (error) {
      if (!(error instanceof RedisUnavailableError)) throw error;
    }
  };

  node.onResync(async () => {
    const pairs: (string | number)[] = [];
    for (const [channel, subscribers] of local.subscriptionCounts()) pairs.push(channel, subscribers);
    await node.call(scripts.replaceNodeCounts, [node.keys.nodes, node.keys.nodeSubscriptions(node.id)], [node.id, ...pairs]);
  });

  return {
    subscribed: (channel) => count(channel, 1),
    unsubscribed: (channel) => count(channel, -1),
    async subscriptionCounts(prefix = "") {
      const counts = local.subscriptionCounts(prefix);
      let reply: unknown;
      try {
        reply = await node.command((redis) => runScript(redis, scripts.liveSubscriptions, [node.keys.nodes], [node.keys.base, node.expiryMs, node.id, prefix]));
      } catch (error) {
        if (error instanceof RedisUnavailableError) return counts;
        throw error;
      }
      if (!Array.isArray(reply)) return counts;
      for (let index = 0; index + 1 < reply.length; index += 2) {
        const channel = String(reply[index]);
        counts.set(channel, (counts.get(channel) ?? 0) + Number(reply[index + 1]));
      }
      return counts;
    },
    async subscriptionCount(channel) {
      const own = local.subscriptionCount(channel);
      try {
        const others = await node.command((redis) => runScript(redis, scripts.liveSubscriptionCount, [node.keys.nodes], [node.keys.base, node.expiryMs, node.id, channel]));
        return own + Number(others);
      } catch (error) {
        if (error instanceof RedisUnavailableError) return own;
        throw error;
      }
    },
  };
}
