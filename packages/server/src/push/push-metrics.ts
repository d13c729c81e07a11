import { Counter, type Registry } from "prom-client";

/** What became of one send attempt. */
export type PushOutcome = "accepted" | "gone" | "retry" | "failed" | "skipped";

const NAME = "frontdesk_push_sends_total";

/** `frontdesk_push_sends_total{outcome}`: accepted (2xx), gone (404/410: subscription deleted), retry (429/5xx/network, another attempt queued), failed (no attempt left, or refused), skipped (operator or subscription gone, conversation no longer waiting). */
export function registerPushMetrics(registry: Registry): Counter<"outcome"> {
  const existing = registry.getSingleMetric(NAME);
  if (existing) return existing as Counter<"outcome">;
  return new Counter({ name: NAME, help: "Web Push alerts sent to operators' devices, by outcome.", labelNames: ["outcome"], registers: [registry] });
}
