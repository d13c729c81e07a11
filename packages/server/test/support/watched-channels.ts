import type { Channel } from "pusher-js";
import { Pusher } from "./pusher-client.js";
import { consoleChannelAuthorizer, CONSOLE } from "./console-session.js";
import { pusherOptionsFor, until, type ReverbDescriptor } from "./realtime-clients.js";

/** What pusher-js emits on `pusher:subscription_error`: the server's frame data, or the authoriser's failure. */
export interface SubscriptionError {
  type?: string;
  error?: string;
  status?: number;
}

/** A pusher-js channel and everything it heard, in order (subscription_succeeded and _error included). */
export interface WatchedChannel {
  name: string;
  channel: Channel;
  heard: { event: string; data: unknown }[];
  /** The `pusher:subscription_error`s it heard. */
  errors(): SubscriptionError[];
  /** The application events named `event` it heard. */
  events(event: string): unknown[];
}

/** Subscribes `pusher` to `name`, recording every event, and resolves once subscribed (rejects on a subscription error). */
export async function watchChannel(pusher: Pusher, name: string): Promise<WatchedChannel> {
  const channel = pusher.subscribe(name);
  const heard: WatchedChannel["heard"] = [];
  channel.bind_global((event: string, data: unknown) => heard.push({ event, data }));
  const watched: WatchedChannel = {
    name,
    channel,
    heard,
    errors: () => heard.filter((entry) => entry.event === "pusher:subscription_error").map((entry) => entry.data as SubscriptionError),
    events: (event) => heard.filter((entry) => entry.event === event).map((entry) => entry.data),
  };
  await until(() => heard.some((entry) => entry.event === "pusher:subscription_succeeded" || entry.event === "pusher:subscription_error"), 10_000);
  const refused = watched.errors()[0];
  if (refused) throw new Error(`subscription to ${name} refused: ${JSON.stringify(refused)}`);
  return watched;
}

/** pusher-js as the console configures it, its channels signed by the console's auth route at `serviceUrl` with a session's headers. */
export function consolePusherFor(reverb: ReverbDescriptor, serviceUrl: string, headers: Record<string, string>): Pusher {
  const endpoint = `${serviceUrl}${CONSOLE}/broadcasting/auth`;
  return new Pusher(reverb.app_key, pusherOptionsFor(reverb, { channelAuthorization: { endpoint, transport: "ajax", customHandler: consoleChannelAuthorizer(endpoint, headers) } }));
}

/** Waits (polling) until every channel has heard a subscription error. */
export async function untilRevoked(channels: WatchedChannel[], timeoutMs = 10_000): Promise<void> {
  await until(() => channels.every((watched) => watched.errors().length > 0), timeoutMs);
}
