import { AddressCounts, type ConnectionQuota } from "../transport/connection-quota.js";
import { RedisUnavailableError, type RedisRealtimeNode } from "./redis-realtime-node.js";
import { scripts } from "./redis-realtime-scripts.js";

/**
 * Sockets per client address over every live process: each process counts its own under its node,
 * and a socket is admitted (in one script, so two processes cannot both take the last slot) while
 * the sum over the live nodes is under the limit. A node past the expiry stops counting, and its
 * counts go when it is swept. While Redis is unreachable the limit holds per process, on this
 * process's own counts; when Redis answers again (or this node was swept) they are rewritten from them.
 */
export function createRedisConnectionQuota(node: RedisRealtimeNode, maxPerAddress: number): ConnectionQuota {
  const own = new AddressCounts();
  const keys = () => [node.keys.nodes, node.keys.nodeConnections(node.id)];

  node.onResync(async () => {
    const pairs: (string | number)[] = [];
    for (const [address, count] of own.entries()) pairs.push(address, count);
    await node.call(scripts.replaceNodeCounts, keys(), [node.id, ...pairs]);
  });

  return {
    async admit(address) {
      let reply: unknown;
      try {
        // Nothing is counted when the node was unregistered (-1), so `call` may ask again once it has registered.
        reply = await node.call(scripts.admitConnection, keys(), [node.id, node.keys.base, node.expiryMs, address, maxPerAddress]);
      } catch (error) {
        if (!(error instanceof RedisUnavailableError)) throw error;
        reply = -1;
      }
      // Redis cannot say: this process's own count decides.
      if (reply === -1) reply = own.get(address) < maxPerAddress ? 1 : 0;
      if (reply !== 1) return false;
      own.add(address);
      return true;
    },
    async release(address) {
      own.remove(address);
      try {
        await node.call(scripts.countOnNode, keys(), [node.id, address, -1], false);
      } catch (error) {
        if (!(error instanceof RedisUnavailableError)) throw error;
      }
    },
  };
}
