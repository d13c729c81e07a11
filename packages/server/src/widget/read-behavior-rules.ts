import type { BehaviorRule } from "@frontdesk/contracts";
import { AppError } from "../http/app-error.js";
import type { Services } from "../services.js";
import { findAgentWithQuota } from "../tenants/agent-repository.js";
import { isOriginAllowed } from "../tenants/origin-policy.js";

/**
 * POST /rules: the agent's proactive rules, for a page its origin allows, read before any session
 * exists. The widget runs them on every page; it calls init (which starts a conversation, counted
 * against the quota) only when the visitor opens it or a rule fires.
 */
export async function readBehaviorRules(
  services: Services,
  input: { agentId: string; origin: string | undefined; serviceOrigins: readonly string[] },
): Promise<BehaviorRule[]> {
  let found = services.sessionCache.getAgent(input.agentId) ?? null;
  if (!found) {
    found = await findAgentWithQuota(services.db, input.agentId);
    if (found) services.sessionCache.setAgent(input.agentId, found);
  }
  if (!found || !found.agent.published) throw new AppError("agent_not_found", "No published agent has this id.");
  const ownPage = input.origin !== undefined && input.serviceOrigins.includes(input.origin);
  if (!ownPage && !isOriginAllowed(found.agent.allowedOrigins, input.origin)) {
    throw new AppError("origin_forbidden", "This page's origin is not allowed to use this agent.");
  }
  return found.agent.behaviorRules;
}
