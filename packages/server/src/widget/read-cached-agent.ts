import type { Services } from "../services.js";
import { findAgentWithQuota } from "../tenants/agents.js";
import type { CachedAgent } from "./session-cache.js";

/**
 * An agent with its workspace's conversation quota, through the session cache (two seconds; this
 * process drops it when it changes the agent, and `serve` when another process says it did), as
 * init and each question read it: a site's visitors all ask the same agent.
 */
export async function readCachedAgent(services: Services, agentId: string): Promise<CachedAgent | null> {
  const cached = services.sessionCache.getAgent(agentId);
  if (cached) return cached;
  const found = await findAgentWithQuota(services.db, agentId);
  if (found) services.sessionCache.setAgent(agentId, found);
  return found;
}
