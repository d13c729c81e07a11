import type { Agent } from "../tenants/agent.js";
import type { SessionConversation } from "./session-repository.js";

const TTL_MS = 2_000;
const MAX_ENTRIES = 50_000;

/**
 * Session and agent lookups of the last two seconds, so a visitor's burst of events (or a page's
 * burst of inits) does not read the same rows each time. What may be stale for up to two seconds: an agent's unpublishing in
 * another process. What is never stale: a human request (answers re-read it when they store the
 * visitor's message) and anything this process changed (it drops the entry).
 */
export class SessionCache {
  private readonly entries = new Map<string, { conversation: SessionConversation; expiresAt: number }>();
  private readonly agents = new Map<string, { agent: { agent: Agent; conversationQuota: number | null }; expiresAt: number }>();

  /** An agent as init reads it (with its workspace's quota), for two seconds. */
  getAgent(agentId: string): { agent: Agent; conversationQuota: number | null } | undefined {
    const entry = this.agents.get(agentId);
    if (!entry || entry.expiresAt <= this.now()) return undefined;
    return entry.agent;
  }

  setAgent(agentId: string, agent: { agent: Agent; conversationQuota: number | null }): void {
    if (this.agents.size >= MAX_ENTRIES) this.agents.clear();
    this.agents.set(agentId, { agent, expiresAt: this.now() + TTL_MS });
  }

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

  /** An agent changed (published, unpublished): drop it and its sessions. */
  forgetAgent(agentId: string): void {
    this.agents.delete(agentId);
    for (const [id, entry] of this.entries) if (entry.conversation.agentId === agentId) this.entries.delete(id);
  }
}
