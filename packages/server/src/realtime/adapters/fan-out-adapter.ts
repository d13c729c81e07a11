import type { ChannelGrant, Revocation } from "../channels/channel-grants.js";

/** A frame for every subscriber of `channel`, except the socket that caused it. */
export interface ChannelMessage {
  channel: string;
  frame: string;
  exceptSocketId?: string | undefined;
}

/**
 * Channel rights, for the process holding the socket: a grant the service signed (recorded where
 * its socket is), or a revocation (every process ends the grants it holds of those principals).
 */
export type RightsMessage = ({ kind: "grant" } & ChannelGrant) | ({ kind: "revoke" } & Revocation);

/** What a process offers the adapter: delivery to its own subscribers, and the rights of its own sockets. */
export interface LocalSubscribers {
  deliver(message: ChannelMessage): void;
  applyRights(message: RightsMessage): void;
}

/**
 * Carries channel messages to every process serving WebSockets. The local adapter serves one
 * process; the Redis adapter (redis-adapter.ts) shares them between processes through pub/sub. It knows neither the
 * transport nor the channel kinds: it moves frames. (Who is subscribed where is counted apart:
 * channels/channel-occupancy.ts.)
 */
export interface FanOutAdapter {
  publish(message: ChannelMessage): Promise<void>;
  /**
   * Carries a grant or a revocation to every process (this one first), in order with the channel
   * messages; false when it reached this process only (Redis unreachable).
   */
  publishRights(message: RightsMessage): Promise<boolean>;
  /** Whether messages reach the other processes now, and if not, why (the local adapter has none to reach: up). */
  status(): { up: boolean; reason?: string };
  close(): Promise<void>;
}
