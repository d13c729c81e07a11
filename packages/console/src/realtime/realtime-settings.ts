/** The realtime server's address, as the service writes it into index.html (`<meta name="frontdesk-realtime">`). */
export interface RealtimeSettings {
  app_key: string;
  host: string;
  port: number;
  scheme: "ws" | "wss";
}

export function readRealtimeSettings(): RealtimeSettings | null {
  const content = document.querySelector<HTMLMetaElement>('meta[name="frontdesk-realtime"]')?.content;
  if (!content) return null;
  try {
    const value = JSON.parse(content) as Partial<RealtimeSettings>;
    if (typeof value.app_key !== "string" || typeof value.host !== "string" || typeof value.port !== "number") return null;
    return { app_key: value.app_key, host: value.host, port: value.port, scheme: value.scheme === "wss" ? "wss" : "ws" };
  } catch {
    return null;
  }
}
