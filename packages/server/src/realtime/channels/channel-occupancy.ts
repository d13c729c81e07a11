import type { LocalChannels } from "./local-channels.js";

/**
 * How many sockets are subscribed to each channel: what the HTTP API's `occupied`,
 * `subscription_count` and channel list report. In one process it is the local subscriptions;
 * with Redis (redis-channel-occupancy.ts), the sum over every live process. A presence channel's
 * subscriptions are counted by the presence store as its sockets join and leave (the same step as
 * the membership); the counts read here include them.
 */
export interface ChannelOccupancy {
  /** A socket of this process subscribed to `channel` (not a presence channel). */
  subscribed(channel: string): Promise<void>;
  /** A socket of this process left `channel` (not a presence channel). */
  unsubscribed(channel: string): Promise<void>;
  /** Subscriptions per occupied channel whose name begins with `prefix` (every channel by default). */
  subscriptionCounts(prefix?: string): Promise<Map<string, number>>;
  /** One channel's subscriptions (0 when unoccupied), counted without reading the others. */
  subscriptionCount(channel: string): Promise<number>;
}

/** One process: the counts are this process's subscriptions. */
export function createLocalChannelOccupancy(local: LocalChannels): ChannelOccupancy {
  return {
    async subscribed() {},
    async unsubscribed() {},
    async subscriptionCounts(prefix) {
      return local.subscriptionCounts(prefix);
    },
    async subscriptionCount(channel) {
      return local.subscriptionCount(channel);
    },
  };
}
