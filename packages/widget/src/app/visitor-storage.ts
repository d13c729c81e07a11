// The visitor's anonymous id, kept first-party in the host site's localStorage (one per agent), so
// the conversation continues across pages and reloads. Nothing is written before consent.

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

/** Frontdesk.reset(): the visitor's id (and what the widget kept for them) is forgotten. */
export function forgetAnonId(agentId: string): void {
  try {
    for (const name of Object.keys(window.localStorage)) if (name.startsWith(`frontdesk:${agentId}:`)) window.localStorage.removeItem(name);
  } catch {
    // storage blocked: there is nothing to forget
  }
}
