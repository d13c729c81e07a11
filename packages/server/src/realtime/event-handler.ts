import type { ChannelSubscriptions } from "./channels/channel-subscriptions.js";
import type { ClientEvents } from "./client-events.js";
import type { Connection } from "./connection.js";
import { parseClientMessage } from "./protocol/client-messages.js";
import { PusherErrorCode } from "./protocol/pusher-error-codes.js";
import { serverFrames } from "./protocol/server-frames.js";

/**
 * What the server does with each message a client sends. Client events are relayed on presence
 * channels only (client-events.ts): a visitor signals typing through POST /typing, which the
 * service can rate-limit and check.
 */
export class EventHandler {
  constructor(
    private readonly subscriptions: ChannelSubscriptions,
    private readonly clientEvents: ClientEvents,
    /** Channels one socket may be subscribed to at once; one more is refused (`pusher:subscription_error`, 429). */
    private readonly channelsPerConnection: number,
  ) {}

  async handle(connection: Connection, text: string): Promise<void> {
    const message = parseClientMessage(text);
    switch (message.kind) {
      case "ping":
        return connection.send(serverFrames.pong());
      case "pong":
        return;
      case "subscribe":
        if (!connection.channels.has(message.data.channel) && connection.channels.size >= this.channelsPerConnection) {
          const error = `A connection may be subscribed to ${this.channelsPerConnection} channels at most: unsubscribe from one first.`;
          return connection.send(serverFrames.subscriptionError(message.data.channel, 429, error, "LimitReached"));
        }
        await this.subscriptions.subscribe(connection, message.data);
        if (this.subscriptions.isSubscribed(message.data.channel, connection.socketId)) connection.channels.add(message.data.channel);
        return;
      case "unsubscribe":
        connection.channels.delete(message.channel);
        return this.subscriptions.unsubscribe(connection.socketId, message.channel);
      case "client-event":
        return this.clientEvents.relay(connection, message.event, message.channel, message.data);
      case "invalid":
        return connection.send(serverFrames.error(PusherErrorCode.messageRejected, message.reason));
    }
  }

  /**
   * The socket's rights to `channel` were revoked: it is told (`pusher:subscription_error`, 403,
   * which pusher-js emits on the channel) and unsubscribed, here and in the shared counts.
   */
  async revoke(connection: Connection, channel: string, reason: string): Promise<void> {
    if (!connection.channels.delete(channel)) return;
    // unsubscribe takes the socket off the channel before its first await: nothing published after reaches it.
    const leaving = this.subscriptions.unsubscribe(connection.socketId, channel);
    connection.send(serverFrames.subscriptionError(channel, 403, reason));
    await leaving;
  }

  /** The socket closed: it leaves every channel it was on. */
  async closed(connection: Connection): Promise<void> {
    const channels = [...connection.channels];
    connection.channels.clear();
    for (const channel of channels) await this.subscriptions.unsubscribe(connection.socketId, channel);
  }
}
