import type { FanOutAdapter } from "../adapters/fan-out-adapter.js";
import type { SubscribeData } from "../protocol/client-messages.js";
import { serverFrames } from "../protocol/server-frames.js";
import type { PresenceStore } from "../presence/presence-store.js";
import type { ChannelGrants } from "./channel-grants.js";
import { channelNameProblem, kindOfChannel } from "./channel-name.js";
import type { ChannelOccupancy } from "./channel-occupancy.js";
import { isSubscriptionSigned, type ChannelCredentials } from "./channel-signature.js";
import type { LocalChannels, Subscriber } from "./local-channels.js";
import { parsePresenceChannelData } from "./presence-channel-data.js";

export interface ChannelSubscriptionsOptions {
  credentials: ChannelCredentials;
  channelNameLength: number;
  local: LocalChannels;
  adapter: FanOutAdapter;
  presence: PresenceStore;
  occupancy: ChannelOccupancy;
  /** The grants of this process's sockets: a signed subscription whose grant was revoked is refused. */
  grants: ChannelGrants;
}

/**
 * Joining and leaving channels, by kind: public channels admit anyone; private ones a signed
 * subscription (unless its grant was revoked); presence ones the same, whose `channel_data` names
 * the user, whose arrival and departure the other members hear about once per user, not once per socket.
 */
export class ChannelSubscriptions {
  /** The user each of this process's presence subscriptions joined as (`channel\nsocket id` → user id), for its client events. */
  private readonly presenceUsers = new Map<string, string>();

  constructor(private readonly options: ChannelSubscriptionsOptions) {}

  async subscribe(subscriber: Subscriber, data: SubscribeData): Promise<void> {
    const { channel } = data;
    const { adapter, presence, credentials } = this.options;
    const problem = channelNameProblem(channel, this.options.channelNameLength);
    if (problem) return subscriber.send(serverFrames.subscriptionError(channel, 400, problem));
    const kind = kindOfChannel(channel);
    if (kind === "public") {
      await this.add(channel, subscriber);
      return subscriber.send(serverFrames.subscriptionSucceeded(channel));
    }
    const channelData = kind === "presence" ? data.channel_data : undefined;
    if (!isSubscriptionSigned(credentials, data.auth, subscriber.socketId, channel, channelData)) {
      return subscriber.send(serverFrames.subscriptionError(channel, 401, "The subscription's signature is not valid for this socket and channel."));
    }
    const refusal = this.options.grants.refusal(subscriber.socketId, channel, channelData);
    if (refusal) return subscriber.send(serverFrames.subscriptionError(channel, 403, refusal));
    if (kind === "private") {
      await this.add(channel, subscriber);
      return subscriber.send(serverFrames.subscriptionSucceeded(channel));
    }
    const member = parsePresenceChannelData(channelData);
    if (!member) return subscriber.send(serverFrames.subscriptionError(channel, 400, "channel_data must be JSON with a user_id."));
    // The presence store counts this subscription with the membership, and answers the members, in one step.
    this.options.local.add(channel, subscriber);
    this.presenceUsers.set(`${channel}\n${subscriber.socketId}`, member.userId);
    const { added, members } = await presence.join(channel, subscriber.socketId, member);
    subscriber.send(serverFrames.subscriptionSucceeded(channel, members));
    if (added) await adapter.publish({ channel, frame: serverFrames.memberAdded(channel, member), exceptSocketId: subscriber.socketId });
  }

  isSubscribed(channel: string, socketId: string): boolean {
    return this.options.local.has(channel, socketId);
  }

  /** The user a socket of this process is on a presence channel as, or null when it is not subscribed to it. */
  presenceUserOf(channel: string, socketId: string): string | null {
    return this.options.local.has(channel, socketId) ? (this.presenceUsers.get(`${channel}\n${socketId}`) ?? null) : null;
  }

  async unsubscribe(socketId: string, channel: string): Promise<void> {
    if (!this.options.local.remove(channel, socketId)) return;
    if (kindOfChannel(channel) !== "presence") return this.options.occupancy.unsubscribed(channel);
    this.presenceUsers.delete(`${channel}\n${socketId}`);
    const { removedUserId } = await this.options.presence.leave(channel, socketId);
    if (removedUserId !== null) await this.options.adapter.publish({ channel, frame: serverFrames.memberRemoved(channel, removedUserId) });
  }

  /** Adds the subscriber here and counts it where every process reads subscription counts (presence channels: presence.join). */
  private async add(channel: string, subscriber: Subscriber): Promise<void> {
    if (this.options.local.add(channel, subscriber)) await this.options.occupancy.subscribed(channel);
  }
}
