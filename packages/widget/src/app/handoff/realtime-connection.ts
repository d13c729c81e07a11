// The realtime client, loaded as its own chunk only when the conversation needs live events (a
// person was asked for, or an operator has the conversation): pusher-js (its worker build, aliased
// in build.mjs) on init's `reverb` values, subscribed to the visitor's one channel,
// private-conversation.{conversation_id}.
import Pusher from "pusher-js";
import type { ConversationMessage, ConversationStatus } from "@frontdesk/contracts";

export interface Reverb {
  app_key: string;
  host: string;
  port: number;
  scheme: string;
}

/** What the conversation's channel says, as bus-channels.ts on the server publishes it. */
export interface RealtimeHandlers {
  message(message: ConversationMessage): void;
  typing(event: { role: string; typing: boolean; name: string | null }): void;
  updated(event: { seq: number; status: ConversationStatus; assignee: { name: string } | null }): void;
  /** Subscribed (first time and after every reconnect): fetch what was missed since the last seq. */
  subscribed(): void;
}

export interface RealtimeConnection {
  disconnect(): void;
}

export function connectConversation(options: {
  reverb: Reverb;
  conversationId: string;
  authorize(socketId: string, channelName: string): Promise<{ auth: string }>;
  handlers: RealtimeHandlers;
}): RealtimeConnection {
  const { reverb, handlers } = options;
  const pusher = new Pusher(reverb.app_key, {
    cluster: "",
    wsHost: reverb.host,
    wsPort: reverb.port,
    wssPort: reverb.port,
    forceTLS: reverb.scheme === "https" || reverb.scheme === "wss",
    enabledTransports: ["ws", "wss"],
    disableStats: true,
    channelAuthorization: {
      endpoint: "",
      transport: "ajax",
      // fetch with the current session token as a bearer header (renewed tokens included); never in a URL.
      customHandler: ({ socketId, channelName }, callback) => {
        options.authorize(socketId, channelName).then(
          (data) => callback(null, data),
          (error: Error) => callback(error, null),
        );
      },
    },
  });
  const channel = pusher.subscribe(`private-conversation.${options.conversationId}`);
  // The handlers as they are: pusher-js calls them with the event's data (and metadata, which they ignore).
  channel.bind("pusher:subscription_succeeded", handlers.subscribed);
  channel.bind("message.created", handlers.message);
  channel.bind("typing", handlers.typing);
  channel.bind("conversation.updated", handlers.updated);
  // The worker build (see build.mjs) does not watch the browser's network: back online, connect at once.
  const online = () => {
    if (pusher.connection.state !== "connected") pusher.connect();
  };
  window.addEventListener("online", online);
  return {
    disconnect: () => {
      window.removeEventListener("online", online);
      pusher.disconnect();
    },
  };
}
