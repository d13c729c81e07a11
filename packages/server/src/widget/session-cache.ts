import type { SessionConversation } from "./session-repository.js";

const TTL_MS = 2_000;
const MAX_ENTRIES = 50_000;

/**
 * Session lookups of the last two seconds, so a visitor's burst of events does not read the same
 * conversation row each time. What may be stale for up to two seconds: an agent's unpublishing in
 * another process. What is never stale: a human request (answers re-read it when they store the
 * visitor's message) and anything this process changed (it drops the entry).
 */
export class SessionCache {
  private readonly entries = new Map<string, { conversation: SessionConversation; expiresAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  get(conversationId: string): SessionConversation | undefined {
    const entry = this.entries.get(conversationId);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(conversationId);
      return undefined;
    }
    return entry.conversation;
  }

  set(conversation: SessionConversation): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(conversation.id, { conversation, expiresAt: this.now() + TTL_MS });
  }

  forget(conversationId: string): void {
    this.entries.delete(conversationId);
  }

  /** An agent changed (published, unpublished): drop its sessions. */
  forgetAgent(agentId: string): void {
    for (const [id, entry] of this.entries) if (entry.conversation.agentId === agentId) this.entries.delete(id);
  }
}
