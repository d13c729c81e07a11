// The visitor's anonymous id, kept first-party in the host site's localStorage (one per agent), so
// the conversation continues across pages and reloads. Nothing is written before consent.

import type { Outgoing } from "./widget-api-client.js";

const key = (agentId: string) => `frontdesk:${agentId}:anon`;
const ANON_ID = /^[A-Za-z0-9_-]{8,128}$/;

export function readAnonId(agentId: string): string | undefined {
  try {
    const value = window.localStorage.getItem(key(agentId));
    return value && ANON_ID.test(value) ? value : undefined;
  } catch {
    return undefined; // storage blocked (privacy settings, sandboxed frame)
  }
}

export function writeAnonId(agentId: string, anonId: string): void {
  try {
    window.localStorage.setItem(key(agentId), anonId);
  } catch {
    // storage blocked: the conversation lasts as long as the page
  }
}


/**
 * The visitor's messages not yet delivered (the outbox), read, or written when `messages` is given: kept
 * in sessionStorage (this tab only, gone when it closes) so that a reload does not lose them; only the
 * visitor who wrote them gets them back.
 */
export function outbox(agentId: string, messages?: Outgoing[]): Outgoing[] {
  const name = `frontdesk:${agentId}:outbox`;
  try {
    if (!messages) {
      const kept = JSON.parse(sessionStorage.getItem(name) ?? "{}") as { a?: string; m?: Outgoing[] };
      return (kept.a == readAnonId(agentId) && kept.m) || [];
    }
    if (messages[0]) sessionStorage.setItem(name, JSON.stringify({ a: readAnonId(agentId), m: messages }));
    else sessionStorage.removeItem(name);
  } catch {
    // storage blocked: the outbox lasts as long as the page
  }
  return [];
}

/** Frontdesk.reset(): the visitor's id (and what the widget kept for them, the outbox too) is forgotten. */
export function forgetAnonId(agentId: string): void {
  try {
    for (const store of [localStorage, sessionStorage]) for (const name of Object.keys(store)) if (name.startsWith(`frontdesk:${agentId}:`)) store.removeItem(name);
  } catch {
    // storage blocked: there is nothing to forget
  }
}
