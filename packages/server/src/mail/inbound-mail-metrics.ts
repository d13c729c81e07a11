import { Counter, type Registry } from "prom-client";

/** What became of one inbound mail. */
export type InboundOutcome = "stored" | "duplicate" | "bounce" | "unmatched" | "wrong_sender" | "automatic" | "empty" | "too_large" | "malformed" | "conversation_gone";

/** A post a provider could not prove it sent (a bad signature or password): counted, never read. */
export type InboundRefusal = InboundOutcome | "unauthenticated";

const NAME = "frontdesk_inbound_mails_total";

/** `frontdesk_inbound_mails_total{channel,outcome}`: each inbound mail by how it came (imap, mailgun, postmark) and what became of it. */
export function registerInboundMailMetrics(registry: Registry): Counter<"channel" | "outcome"> {
  const existing = registry.getSingleMetric(NAME);
  if (existing) return existing as Counter<"channel" | "outcome">;
  return new Counter({ name: NAME, help: "Inbound mails (replies by e-mail), by channel and outcome.", labelNames: ["channel", "outcome"], registers: [registry] });
}
