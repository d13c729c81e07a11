import type { Schemas } from "../api/client.js";

type Status = Schemas["ConsoleConversation"]["status"];

const LABELS: Record<Status, string> = { bot: "Bot", awaiting_human: "Awaiting a human", human: "With an operator", closed: "Closed" };

export function StatusBadge({ status }: { status: Status }) {
  return <span className={`badge status-${status}`}>{LABELS[status]}</span>;
}

/** A short, stable name for an anonymous visitor. */
export function visitorLabel(anonId: string): string {
  return `Visitor ${anonId.replace(/[^A-Za-z0-9]/g, "").slice(-6).toUpperCase()}`;
}
