import type { FanOutAdapter } from "./adapters/fan-out-adapter.js";
import { kindOfChannel } from "./channels/channel-name.js";
import type { ChannelSubscriptions } from "./channels/channel-subscriptions.js";
import type { Connection } from "./connection.js";
import { PusherErrorCode } from "./protocol/pusher-error-codes.js";
import { serverFrames } from "./protocol/server-frames.js";

/** Pusher Channels' limit: client events a connection may send per second; the rest are refused. */
export const CLIENT_EVENTS_PER_SECOND = 10;

/**
 * Client events (`client-*`, pusher-js's `channel.trigger`), relayed as the Pusher protocol does
 * on presence channels only: the sender must be subscribed, every other subscriber (on every
 * process) receives it with the sender's `user_id` from its signed `channel_data`, the sender does
 * not. Private and public channels refuse them (4301): on those a sender has no identity the
 * server vouches for, and a visitor's words go through HTTP routes that authenticate, rate-limit
 * and store them. Ten a second per connection; past that, 4301 and dropped.
 */
export class ClientEvents {
  private readonly windows = new WeakMap<Connection, { startedAt: number; count: number }>();

  constructor(
    private readonly subscriptions: ChannelSubscriptions,
    private readonly adapter: FanOutAdapter,
    private readonly now: () => number = Date.now,
  ) {}

  async relay(connection: Connection, event: string, channel: string | undefined, data: string): Promise<void> {
    const refuse = (reason: string) => connection.send(serverFrames.error(PusherErrorCode.clientEventRejected, reason));
    if (channel === undefined || kindOfChannel(channel) !== "presence") return refuse("Client events are accepted on presence channels only.");
    const userId = this.subscriptions.presenceUserOf(channel, connection.socketId);
    if (userId === null) return refuse(`Subscribe to ${channel} before sending it client events.`);
    if (this.overLimit(connection)) return refuse(`Over ${CLIENT_EVENTS_PER_SECOND} client events a second: this one was dropped.`);
    await this.adapter.publish({ channel, frame: serverFrames.clientEvent(channel, event, data, userId), exceptSocketId: connection.socketId });
  }

  /** A fixed one-second window per connection, opened by its first client event. */
  private overLimit(connection: Connection): boolean {
    const now = this.now();
    const window = this.windows.get(connection);
    if (!window || now - window.startedAt >= 1000) {
      this.windows.set(connection, { startedAt: now, count: 1 });
      return false;
    }
    window.count += 1;
    return window.count > CLIENT_EVENTS_PER_SECOND;
  }
}
