import type { Schemas } from "../api/client.js";

export type ConsoleMessage = Schemas["ConsoleMessage"];

/** Messages in their conversation's order (seq; those stored before seqs existed first, by time), each id once, the newer copy kept. */
export function mergeMessages(current: readonly ConsoleMessage[], incoming: readonly ConsoleMessage[]): ConsoleMessage[] {
  const byId = new Map<string, ConsoleMessage>();
  for (const message of current) byId.set(message.id, message);
  for (const message of incoming) byId.set(message.id, message);
  return [...byId.values()].sort((a, b) => {
    if (a.seq !== null && b.seq !== null) return a.seq - b.seq;
    if (a.seq === null && b.seq === null) return a.created_at.localeCompare(b.created_at);
    return a.seq === null ? -1 : 1;
  });
}

/** The highest seq among `messages` (0 when none has one): where a catch-up resumes. */
export function lastSeqOf(messages: readonly ConsoleMessage[]): number {
  return messages.reduce((highest, message) => Math.max(highest, message.seq ?? 0), 0);
}
