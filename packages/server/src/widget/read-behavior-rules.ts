import type { BehaviorRule } from "@frontdesk/contracts";
import type { Services } from "../services.js";
import { admitAgent } from "./admit-agent.js";

/**
 * POST /rules: the agent's proactive rules, for a page its origin allows, read before any session
 * exists. The widget runs them on every page; it calls init (which starts a conversation, counted
 * against the quota) only when the visitor opens it or a rule fires.
 */
export async function readBehaviorRules(
  services: Services,
  input: { agentId: string; origin: string | undefined; serviceOrigins: readonly string[] },
): Promise<BehaviorRule[]> {
  const { agent } = await admitAgent(services, input);
  return agent.behaviorRules;
}
