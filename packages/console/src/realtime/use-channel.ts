import { useEffect, useRef } from "react";
import { listen } from "./console-realtime.js";
import { useRealtime } from "./realtime-context.js";

/**
 * Subscribes to `channelName` while the component is mounted (null: none) and calls the latest
 * `handlers`; `onSubscribed` runs on every (re)subscription, to read what was missed.
 */
export function useChannel(channelName: string | null, handlers: Record<string, (data: never) => void>, onSubscribed?: () => void): void {
  const { pusher } = useRealtime();
  const latest = useRef({ handlers, onSubscribed });
  latest.current = { handlers, onSubscribed };
  const events = Object.keys(handlers).sort().join(",");
  useEffect(() => {
    if (!pusher || !channelName) return;
    const channel = pusher.channel(channelName) ?? pusher.subscribe(channelName);
    const forwarding = Object.fromEntries(
      events
        .split(",")
        .filter(Boolean)
        .map((event) => [event, (data: never) => latest.current.handlers[event]?.(data)]),
    );
    const stop = listen(channel, forwarding, () => latest.current.onSubscribed?.());
    return () => {
      stop();
      // The workspace and presence channels stay for the session; a conversation's goes with its view.
      if (channelName.startsWith("private-conversation.")) pusher.unsubscribe(channelName);
    };
  }, [pusher, channelName, events]);
}
