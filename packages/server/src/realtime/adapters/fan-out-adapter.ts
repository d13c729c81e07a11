/** A frame for every subscriber of `channel`, except the socket that caused it. */
export interface ChannelMessage {
  channel: string;
  frame: string;
  exceptSocketId?: string | undefined;
}

/** What a process offers the adapter: delivery to its own subscribers. */
export interface LocalSubscribers {
  deliver(message: ChannelMessage): void;
}

/**
 * Carries channel messages to every process serving WebSockets. The local adapter serves one
 * process; the Redis adapter (redis-adapter.ts) shares them between processes through pub/sub. It knows neither the
 * transport nor the channel kinds: it moves frames. (Who is subscribed where is counted apart:
 * channels/channel-occupancy.ts.)
 */
export interface FanOutAdapter {
  publish(message: ChannelMessage): Promise<void>;
  /** Whether messages reach the other processes now, and if not, why (the local adapter has none to reach: up). */
  status(): { up: boolean; reason?: string };
  close(): Promise<void>;
}
