import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { RealtimeConfig } from "../config/realtime.js";
import type { FanOutAdapter } from "./adapters/fan-out-adapter.js";
import { createLocalFanOutAdapter } from "./adapters/local-fan-out-adapter.js";
import { ChannelSubscriptions } from "./channels/channel-subscriptions.js";
import type { ChannelCredentials } from "./channels/channel-signature.js";
import { LocalChannels } from "./channels/local-channels.js";
import { EventHandler } from "./event-handler.js";
import { createLocalPresenceStore } from "./presence/local-presence-store.js";
import type { PresenceMember, PresenceStore } from "./presence/presence-store.js";
import { PusherErrorCode } from "./protocol/pusher-error-codes.js";
import { serverFrames } from "./protocol/server-frames.js";
import { WebSocketTransport } from "./transport/websocket-transport.js";

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
  /** Subscriptions per occupied channel. */
  subscriptionCounts(): Promise<Map<string, number>>;
  presenceMembers(channel: string): Promise<PresenceMember[]>;
  readonly connectionCount: number;
  /** Closes every socket with 4200 (reconnect at once), then the adapter and presence store. */
  close(): Promise<void>;
}

export interface RealtimeServerParts {
  /** The fan-out across processes; the in-process adapter by default. */
  adapter?: (local: LocalChannels) => FanOutAdapter;
  /** Presence membership; the in-process store by default. */
  presence?: PresenceStore;
  onError?: (error: unknown) => void;
}

export function createRealtimeServer(config: RealtimeConfig, appSecret: string, parts: RealtimeServerParts = {}): RealtimeServer {
  const credentials = { appId: config.appId, appKey: config.appKey, appSecret };
  const local = new LocalChannels();
  const adapter = (parts.adapter ?? createLocalFanOutAdapter)(local);
  const presence = parts.presence ?? createLocalPresenceStore();
  const subscriptions = new ChannelSubscriptions({ credentials, channelNameLength: config.limits.channelNameLength, local, adapter, presence });
  const handler = new EventHandler(subscriptions);
  const transport = new WebSocketTransport(
    {
      appKey: config.appKey,
      clientMessageBytes: config.limits.clientMessageBytes,
      maxConnections: config.limits.maxConnections,
      sendBufferBytes: config.limits.sendBufferBytes,
      activityTimeoutSeconds: config.activityTimeoutSeconds,
      pongTimeoutSeconds: config.pongTimeoutSeconds,
    },
    {
      message: (connection, text) => handler.handle(connection, text),
      closed: (connection) => handler.closed(connection),
      failed: (error) => parts.onError?.(error),
    },
  );

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
    subscriptionCounts: () => adapter.subscriptionCounts(),
    presenceMembers: (channel) => presence.members(channel),
    get connectionCount() {
      return transport.connectionCount;
    },
    close() {
      closing ??= (async () => {
        await transport.close(PusherErrorCode.reconnectNow, "Server shutting down");
        await adapter.close();
        await presence.close();
      })();
      return closing;
    },
  };
}
