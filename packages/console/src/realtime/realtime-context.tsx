import type Pusher from "pusher-js";
import { createContext, useContext, useEffect, useState, type ReactNode } from "react";
import { connectRealtime } from "./console-realtime.js";
import { readRealtimeSettings } from "./realtime-settings.js";

export type ConnectionState = "connecting" | "connected" | "unavailable" | "disconnected";

interface RealtimeValue {
  pusher: Pusher | null;
  state: ConnectionState;
}

const RealtimeContext = createContext<RealtimeValue>({ pusher: null, state: "disconnected" });

/** One realtime connection for the signed-in session; closed at sign-out. */
export function RealtimeProvider({ children }: { children: ReactNode }) {
  const [value, setValue] = useState<RealtimeValue>({ pusher: null, state: "connecting" });
  useEffect(() => {
    const settings = readRealtimeSettings();
    if (!settings) {
      setValue({ pusher: null, state: "unavailable" });
      return;
    }
    const pusher = connectRealtime(settings);
    const onChange = ({ current }: { current: string }) => {
      const state: ConnectionState =
        current === "connected" ? "connected" : current === "unavailable" || current === "failed" ? "unavailable" : current === "disconnected" ? "disconnected" : "connecting";
      setValue({ pusher, state });
    };
    pusher.connection.bind("state_change", onChange);
    setValue({ pusher, state: "connecting" });
    // The browser's own network signal: back online, reconnect at once rather than at the next retry.
    const online = () => {
      if (pusher.connection.state !== "connected") pusher.connect();
    };
    window.addEventListener("online", online);
    return () => {
      window.removeEventListener("online", online);
      pusher.connection.unbind("state_change", onChange);
      pusher.disconnect();
    };
  }, []);
  return <RealtimeContext.Provider value={value}>{children}</RealtimeContext.Provider>;
}

export function useRealtime(): RealtimeValue {
  return useContext(RealtimeContext);
}
