import type { Env } from "./env-schema.js";
import { trustedProxiesOf } from "./trusted-proxies.js";

/** What the realtime server refuses, and when it disconnects. */
export interface RealtimeLimits {
  /** A message from a client (bytes); larger frames close the socket with 1009. */
  clientMessageBytes: number;
  /** The `data` of an event published through the HTTP API (bytes). */
  eventPayloadBytes: number;
  channelNameLength: number;
  channelsPerEvent: number;
  eventsPerBatch: number;
  /** Open sockets per process; one more is told 4100 (over capacity) and closed. */
  maxConnections: number;
  /** Open sockets per client address (on every process, with Redis); one more is told 4100 and closed. */
  connectionsPerAddress: number;
  /** Channels one socket may be subscribed to at once; one more is refused (`pusher:subscription_error`, 429). */
  channelsPerConnection: number;
  /** Bytes queued for a client that does not read; past them it is disconnected. */
  sendBufferBytes: number;
}

/**
 * Who serves the WebSockets. `embedded`: this service, on its own port. `pusher`: an external
 * Pusher-compatible server (Pusher Channels, soketi, Reverb, a `frontdesk realtime` process), to
 * which the service publishes through the Pusher HTTP API at `apiUrl`.
 */
export type RealtimeDriverConfig = { kind: "embedded" } | { kind: "pusher"; apiUrl: string; timeoutMs: number };

export interface RealtimeConfig {
  driver: RealtimeDriverConfig;
  appId: string;
  appKey: string;
  /** Unset: generated once and kept in the data dir (see realtime-secret.ts). */
  appSecret: string | undefined;
  /** What init tells the widget: where the WebSocket server is reached. */
  descriptor: { host: string; port: number; scheme: "ws" | "wss" };
  activityTimeoutSeconds: number;
  pongTimeoutSeconds: number;
  limits: RealtimeLimits;
  /** FRONTDESK_TRUSTED_PROXIES: whose `X-Forwarded-For` names a WebSocket client's address, as for HTTP requests. */
  trustedProxies: string[];
}

/**
 * The realtime configuration. By default the WebSocket server is this service itself, reached
 * where browsers reach it: FRONTDESK_PUBLIC_URL's host and port, `wss` behind https.
 */
export function realtimeConfigFor(env: Env, publicUrl: string): RealtimeConfig {
  const url = new URL(publicUrl);
  const secure = url.protocol === "https:";
  const publicPort = url.port === "" ? (secure ? 443 : 80) : Number(url.port);
  const scheme = env.REALTIME_SCHEME === undefined ? (secure ? "wss" : "ws") : env.REALTIME_SCHEME === "wss" || env.REALTIME_SCHEME === "https" ? "wss" : "ws";
  const descriptor: RealtimeConfig["descriptor"] = { host: env.REALTIME_HOST ?? url.hostname, port: env.REALTIME_PORT ?? publicPort, scheme };
  return {
    driver:
      env.REALTIME_DRIVER === "pusher"
        ? { kind: "pusher", apiUrl: env.REALTIME_API_URL?.replace(/\/$/, "") ?? apiUrlOf(descriptor), timeoutMs: Math.round(env.REALTIME_API_TIMEOUT_SECONDS * 1000) }
        : { kind: "embedded" },
    appId: env.REALTIME_APP_ID,
    appKey: env.REALTIME_APP_KEY,
    appSecret: env.REALTIME_APP_SECRET,
    descriptor,
    activityTimeoutSeconds: env.REALTIME_ACTIVITY_TIMEOUT_SECONDS,
    pongTimeoutSeconds: env.REALTIME_PONG_TIMEOUT_SECONDS,
    limits: {
      clientMessageBytes: env.REALTIME_MAX_MESSAGE_BYTES,
      eventPayloadBytes: env.REALTIME_MAX_EVENT_PAYLOAD_BYTES,
      channelNameLength: env.REALTIME_MAX_CHANNEL_NAME_LENGTH,
      channelsPerEvent: env.REALTIME_MAX_CHANNELS_PER_EVENT,
      eventsPerBatch: env.REALTIME_MAX_BATCH_EVENTS,
      maxConnections: env.REALTIME_MAX_CONNECTIONS,
      connectionsPerAddress: env.REALTIME_MAX_CONNECTIONS_PER_IP,
      channelsPerConnection: env.REALTIME_MAX_CHANNELS_PER_CONNECTION,
      sendBufferBytes: env.REALTIME_MAX_SEND_BUFFER_BYTES,
    },
    trustedProxies: trustedProxiesOf(env),
  };
}

/** Where the Pusher HTTP API of the server init points at is, by default: the same host and port, http for ws and https for wss. */
function apiUrlOf(descriptor: RealtimeConfig["descriptor"]): string {
  const host = descriptor.host.includes(":") ? `[${descriptor.host}]` : descriptor.host;
  return `${descriptor.scheme === "wss" ? "https" : "http"}://${host}:${descriptor.port}`;
}
