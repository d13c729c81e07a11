/** A frame for every subscriber of `channel`, except the socket that caused it. */
export interface ChannelMessage {
  channel: string;
  frame: string;
  exceptSocketId?: string | undefined;
}

/** What a process offers the adapter: delivery to, and counts of, its own subscribers. */
export interface LocalSubscribers {
  deliver(message: ChannelMessage): void;
  /** Subscriptions of this process, per occupied channel. */
  subscriptionCounts(): Map<string, number>;
}

/**
 * Carries channel messages to every process serving WebSockets. The local adapter serves one
 * process; the Redis adapter (redis-adapter.ts) shares them between processes through pub/sub. It knows neither the
 * transport nor the channel kinds: it moves frames and counts subscriptions.
 */
export interface FanOutAdapter {
  publish(message: ChannelMessage): Promise<void>;
  /** Subscriptions per occupied channel (this process's until a shared count exists). */
  subscriptionCounts(): Promise<Map<string, number>>;
  close(): Promise<void>;
}
