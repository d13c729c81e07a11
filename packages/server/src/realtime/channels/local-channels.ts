import type { ChannelMessage } from "../adapters/fan-out-adapter.js";

/** Something that receives frames: a connection, as the channels see it. */
export interface Subscriber {
  readonly socketId: string;
  send(frame: string): void;
}

/** The subscriptions of this process: channel → its subscribers, by socket id. */
export class LocalChannels {
  private readonly channels = new Map<string, Map<string, Subscriber>>();

  /** Whether the subscriber is new to the channel. */
  add(channel: string, subscriber: Subscriber): boolean {
    let subscribers = this.channels.get(channel);
    if (!subscribers) this.channels.set(channel, (subscribers = new Map()));
    const added = !subscribers.has(subscriber.socketId);
    subscribers.set(subscriber.socketId, subscriber);
    return added;
  }

  /** Whether the subscriber was on the channel. */
  remove(channel: string, socketId: string): boolean {
    const subscribers = this.channels.get(channel);
    if (!subscribers?.delete(socketId)) return false;
    if (subscribers.size === 0) this.channels.delete(channel);
    return true;
  }

  has(channel: string, socketId: string): boolean {
    return this.channels.get(channel)?.has(socketId) ?? false;
  }

  deliver(message: ChannelMessage): void {
    const subscribers = this.channels.get(message.channel);
    if (!subscribers) return;
    for (const subscriber of subscribers.values()) {
      if (subscriber.socketId !== message.exceptSocketId) subscriber.send(message.frame);
    }
  }

  /** Subscriptions per occupied channel whose name begins with `prefix`. */
  subscriptionCounts(prefix = ""): Map<string, number> {
    const counts = new Map<string, number>();
    for (const [channel, subscribers] of this.channels) if (channel.startsWith(prefix)) counts.set(channel, subscribers.size);
    return counts;
  }

  subscriptionCount(channel: string): number {
    return this.channels.get(channel)?.size ?? 0;
  }
}
