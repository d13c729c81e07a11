import Pusher from "pusher-js";
import type { Channel } from "pusher-js";
import { api, dataOf } from "../api/client.js";
import type { RealtimeSettings } from "./realtime-settings.js";

/**
 * pusher-js (Pusher protocol 7) on the service's realtime server. Private and presence channels
 * are signed by POST /api/v1/console/broadcasting/auth with the session cookie (the typed client,
 * so the same-origin rules hold); the workspace channel and the operators' presence are joined
 * for the whole session, a conversation's channel while it is open.
 */
export function connectRealtime(settings: RealtimeSettings): Pusher {
  return new Pusher(settings.app_key, {
    cluster: "",
    wsHost: settings.host,
    wsPort: settings.port,
    wssPort: settings.port,
    forceTLS: settings.scheme === "wss",
    enabledTransports: ["ws", "wss"],
    disableStats: true,
    channelAuthorization: {
      endpoint: "",
      transport: "ajax",
      customHandler: ({ socketId, channelName }, callback) => {
        dataOf(api.POST("/api/v1/console/broadcasting/auth", { body: { socket_id: socketId, channel_name: channelName } })).then(
          (signature) => callback(null, signature),
          (error: Error) => callback(error, null),
        );
      },
    },
  });
}

/**
 * Binds `handlers` on `channel` and calls `onSubscribed` on every successful subscription: the
 * first and each one after a reconnect (pusher-js resubscribes), when whatever was missed is read again.
 */
export function listen(channel: Channel, handlers: Record<string, (data: never) => void>, onSubscribed?: () => void): () => void {
  const bound = Object.entries(handlers).map(([event, handler]) => {
    const callback = (data: unknown) => handler(data as never);
    channel.bind(event, callback);
    return [event, callback] as const;
  });
  const subscribed = () => onSubscribed?.();
  if (onSubscribed) {
    channel.bind("pusher:subscription_succeeded", subscribed);
    if (channel.subscribed) subscribed();
  }
  return () => {
    for (const [event, callback] of bound) channel.unbind(event, callback);
    if (onSubscribed) channel.unbind("pusher:subscription_succeeded", subscribed);
  };
}
