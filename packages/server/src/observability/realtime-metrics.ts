import { Gauge, type Registry } from "prom-client";

/** `frontdesk_realtime_connections`: the WebSockets this process serves, read when scraped. */
export function registerRealtimeMetrics(registry: Registry, connections: () => number): void {
  new Gauge({
    name: "frontdesk_realtime_connections",
    help: "WebSocket connections this process serves (0 when an external realtime server serves them).",
    registers: [registry],
    collect() {
      this.set(connections());
    },
  });
}
