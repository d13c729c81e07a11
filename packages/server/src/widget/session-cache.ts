import { LRUCache } from "lru-cache";
import type { Agent } from "../tenants/agent.js";
import type { SessionConversation } from "../conversations/visitor-sessions.js";

const TTL_MS = 2_000;
const MAX_ENTRIES = 50_000;

/** An agent as init reads it, with its workspace's conversation quota. */
export interface CachedAgent {
  agent: Agent;
  conversationQuota: number | null;
  /** The revision of its workspace's model provider (null: none), which chooses a question's generator. */
  modelProviderRevision: string | null;
}

function lruCache<Value extends object>(now: () => number): LRUCache<string, Value> {
  return new LRUCache<string, Value>({
    max: MAX_ENTRIES,
    ttl: TTL_MS,
    // Read the clock on every lookup (the default caches it for a millisecond behind a timer):
    // exact expiry, no timer per read, and a test clock that jumps is honoured at once.
    ttlResolution: 0,
    perf: { now },
  });
}

/**
 * Session and agent lookups of the last two seconds, so a visitor's burst of events (or a page's
 * burst of inits) does not read the same rows each time. What may be stale for up to two seconds: an agent's unpublishing in
 * another process. What is never stale: the conversation's state (read by the statements
 * that store the visitor's message and the bot's reply) and anything this process changed (it drops the entry). At most 50,000
 * conversations and 50,000 agents are kept; beyond that the least recently used go first.
 */
export class SessionCache {
  private readonly conversations: LRUCache<string, SessionConversation>;
  private readonly agents: LRUCache<string, CachedAgent>;

  constructor(now: () => number = Date.now) {
    this.conversations = lruCache(now);
    this.agents = lruCache(now);
  }

  /** An agent as init reads it (with its workspace's quota), for two seconds. */
  getAgent(agentId: string): CachedAgent | undefined {
    return this.agents.get(agentId);
  }

  setAgent(agentId: string, agent: CachedAgent): void {
    this.agents.set(agentId, agent);
  }

  get(conversationId: string): SessionConversation | undefined {
    return this.conversations.get(conversationId);
  }

  set(conversation: SessionConversation): void {
    this.conversations.set(conversation.id, conversation);
  }

  forget(conversationId: string): void {
    this.conversations.delete(conversationId);
  }

  /** An agent changed (published, unpublished): drop it and its sessions. */
  forgetAgent(agentId: string): void {
    this.agents.delete(agentId);
    const sessions: string[] = [];
    this.conversations.forEach((conversation, id) => {
      if (conversation.agentId === agentId) sessions.push(id);
    });
    for (const id of sessions) this.conversations.delete(id);
  }
}
