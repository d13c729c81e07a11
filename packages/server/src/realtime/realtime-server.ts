import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { RealtimeConfig } from "../config/realtime.js";
import { AppError } from "../http/app-error.js";
import type { FanOutAdapter, LocalSubscribers, RightsMessage } from "./adapters/fan-out-adapter.js";
import { createLocalFanOutAdapter } from "./adapters/local-fan-out-adapter.js";
import { ChannelGrants, type ChannelGrant, type Revocation } from "./channels/channel-grants.js";
import { createLocalChannelOccupancy, type ChannelOccupancy } from "./channels/channel-occupancy.js";
import { ChannelSubscriptions } from "./channels/channel-subscriptions.js";
import type { ChannelCredentials } from "./channels/channel-signature.js";
import { LocalChannels } from "./channels/local-channels.js";
import { ClientEvents } from "./client-events.js";
import { EventHandler } from "./event-handler.js";
import { createLocalPresenceStore } from "./presence/local-presence-store.js";
import type { PresenceAnnouncer, PresenceMember, PresenceStore } from "./presence/presence-store.js";
import { PusherErrorCode } from "./protocol/pusher-error-codes.js";
import { serverFrames } from "./protocol/server-frames.js";
import { clientAddressOf } from "./transport/client-address.js";
import { createLocalConnectionQuota, type ConnectionQuota } from "./transport/connection-quota.js";
import { WebSocketTransport } from "./transport/websocket-transport.js";

/** Grants one socket may hold (revoked ones included), per channel it may subscribe to; past them it is asked to reconnect (4200). */
const GRANTS_PER_CHANNEL_LIMIT = 10;

export interface PublishInput {
  channels: string[];
  event: string;
  /** The event's data, as subscribers receive it (a string, usually JSON). */
  data: string;
  /** The socket that caused the event, which does not receive it. */
  exceptSocketId?: string | undefined;
}

/** The embedded Pusher-protocol server: WebSockets, channels, presence and fan-out, composed. */
export interface RealtimeServer {
  readonly config: RealtimeConfig;
  readonly credentials: ChannelCredentials & { appId: string };
  /** Takes a WebSocket upgrade on `/app/{key}`; false for any other path. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  publish(input: PublishInput): Promise<void>;
  /**
   * Records, on the process holding the socket (this one, or another through the adapter), that the
   * subscription the service signs is held by `principals`; resolves once it is on its way there.
   */
  grant(grant: ChannelGrant): Promise<void>;
  /** Ends on every process the subscriptions granted to any of the principals (`pusher:subscription_error` 403, unsubscribed). */
  revoke(revocation: Revocation): Promise<void>;
  /** Subscriptions per occupied channel whose name begins with `prefix` (on every live process, with Redis). */
  subscriptionCounts(prefix?: string): Promise<Map<string, number>>;
  /** One channel's subscriptions, counted alone. */
  subscriptionCount(channel: string): Promise<number>;
  presenceMembers(channel: string): Promise<PresenceMember[]>;
  /** Users per presence channel, counted without listing them. */
  userCounts(channels: string[]): Promise<Map<string, number>>;
  readonly connectionCount: number;
  /** Whether the state shared between processes (Redis) is in use now, and if not, why. */
  sharing(): RealtimeSharing;
  /** Closes every socket with 4200 (reconnect at once) and lets them leave their channels, then the presence store and the adapter. */
  close(): Promise<void>;
}

/** A server alone in its process shares nothing (`shared` false) and is not degraded for it. */
export interface RealtimeSharing {
  shared: boolean;
  degraded: boolean;
  reason?: string;
}

export interface RealtimeServerParts {
  /** The fan-out across processes; the in-process adapter by default. */
  adapter?: (local: LocalSubscribers) => FanOutAdapter;
  /** Sockets per client address; this process's own count by default. */
  quota?: (maxPerAddress: number) => ConnectionQuota;
  /** Presence membership, announcing through the adapter the members it adds or removes by itself; the in-process store by default. */
  presence?: (announce: PresenceAnnouncer) => PresenceStore;
  /** Subscription counts; this process's own by default. */
  occupancy?: (local: LocalChannels) => ChannelOccupancy;
  /** How the sharing between processes goes, the adapter's part included; alone in this process by default. */
  sharing?: (adapter: FanOutAdapter) => RealtimeSharing;
  onError?: (error: unknown) => void;
}

export function createRealtimeServer(config: RealtimeConfig, appSecret: string, parts: RealtimeServerParts = {}): RealtimeServer {
  const credentials = { appId: config.appId, appKey: config.appKey, appSecret };
  const local = new LocalChannels();
  const grants = new ChannelGrants(GRANTS_PER_CHANNEL_LIMIT * config.limits.channelsPerConnection);
  // Set once the transport exists; the adapter only calls it when a message arrives.
  let applyRights: (message: RightsMessage) => void = () => undefined;
  const adapter = (parts.adapter ?? createLocalFanOutAdapter)({ deliver: (message) => local.deliver(message), applyRights: (message) => applyRights(message) });
  const announce: PresenceAnnouncer = {
    memberAdded: (channel, member) => adapter.publish({ channel, frame: serverFrames.memberAdded(channel, member) }),
    memberRemoved: (channel, userId) => adapter.publish({ channel, frame: serverFrames.memberRemoved(channel, userId) }),
  };
  const presence = parts.presence ? parts.presence(announce) : createLocalPresenceStore();
  const occupancy = (parts.occupancy ?? createLocalChannelOccupancy)(local);
  const subscriptions = new ChannelSubscriptions({ credentials, channelNameLength: config.limits.channelNameLength, local, adapter, presence, occupancy, grants });
  const handler = new EventHandler(subscriptions, new ClientEvents(subscriptions, adapter), config.limits.channelsPerConnection);
  const transport = new WebSocketTransport(
    {
      appKey: config.appKey,
      clientMessageBytes: config.limits.clientMessageBytes,
      maxConnections: config.limits.maxConnections,
      sendBufferBytes: config.limits.sendBufferBytes,
      activityTimeoutSeconds: config.activityTimeoutSeconds,
      pongTimeoutSeconds: config.pongTimeoutSeconds,
      clientAddress: clientAddressOf(config.trustedProxies),
      quota: (parts.quota ?? createLocalConnectionQuota)(config.limits.connectionsPerAddress),
    },
    {
      message: (connection, text) => handler.handle(connection, text),
      async closed(connection) {
        await handler.closed(connection);
        grants.forgetSocket(connection.socketId);
      },
      failed: (error) => parts.onError?.(error),
    },
  );
  /** A grant is kept only where its socket is; one too many asks the socket to reconnect, which voids every signature it was given. */
  const recordGrant = (grant: ChannelGrant) => {
    if (!transport.has(grant.socketId) || grants.record(grant)) return;
    transport.closeSocket(grant.socketId, PusherErrorCode.reconnectNow, "Too many channel authorisations on this connection: reconnect");
  };
  applyRights = (message) => {
    if (message.kind === "grant") return recordGrant(message);
    for (const { socketId, channel } of grants.revoke(message.principals)) {
      transport.runOn(socketId, (connection) => handler.revoke(connection, channel, message.reason));
    }
  };

  let closing: Promise<void> | null = null;
  return {
    config,
    credentials,
    handleUpgrade: (request, socket, head) => transport.handleUpgrade(request, socket, head),
    async publish(input) {
      for (const channel of input.channels) {
        await adapter.publish({ channel, frame: serverFrames.event(channel, input.event, input.data), exceptSocketId: input.exceptSocketId });
      }
    },
    async grant(grant) {
      // Most authorisations are asked of the process holding the socket: nothing to share then.
      if (transport.has(grant.socketId)) return recordGrant(grant);
      const { socketId, channel, channelData, principals } = grant;
      const shared = await adapter.publishRights({ kind: "grant", socketId, channel, ...(channelData === undefined ? {} : { channelData }), principals });
      // A signature whose grant reached no process could never be revoked: none is given.
      if (!shared) throw new AppError("service_unavailable", "The realtime server cannot record this subscription now (the socket is on another process, which cannot be reached): retry.");
    },
    async revoke({ principals, reason }) {
      if (!(await adapter.publishRights({ kind: "revoke", principals, reason }))) throw new Error("the revocation reached this process's sockets only: Redis is unreachable");
    },
    subscriptionCounts: (prefix) => occupancy.subscriptionCounts(prefix),
    subscriptionCount: (channel) => occupancy.subscriptionCount(channel),
    presenceMembers: (channel) => presence.members(channel),
    userCounts: (channels) => presence.userCounts(channels),
    get connectionCount() {
      return transport.connectionCount;
    },
    sharing: () => (parts.sharing ? parts.sharing(adapter) : { shared: false, degraded: false }),
    close() {
      closing ??= (async () => {
        // Resolves once every socket has left its channels: departures are written while the stores are open.
        await transport.close(PusherErrorCode.reconnectNow, "Server shutting down");
        await presence.close();
        await adapter.close();
      })();
      return closing;
    },
  };
}
