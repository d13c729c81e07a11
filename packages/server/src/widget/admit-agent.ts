import { AppError } from "../http/app-error.js";
import type { Services } from "../services.js";
import { isOriginAllowed } from "../tenants/origin-policy.js";
import { readCachedAgent } from "./read-cached-agent.js";
import type { CachedAgent } from "./session-cache.js";

/**
 * The published agent a page may use before any session exists (POST /init and POST /rules): read
 * through the session cache, refused with 404 `agent_not_found` when unknown or a draft, and with
 * 403 `origin_forbidden` when the page's `Origin` is neither one of the agent's allowed origins nor
 * one of this service's own pages (`serviceOrigins`: the demo page; empty when FRONTDESK_DEMO=false).
 */
export async function admitAgent(
  services: Services,
  input: { agentId: string; origin: string | undefined; serviceOrigins: readonly string[] },
): Promise<CachedAgent> {
  const found = await readCachedAgent(services, input.agentId);
  if (!found || !found.agent.published) throw new AppError("agent_not_found", "No published agent has this id.");
  const ownPage = input.origin !== undefined && input.serviceOrigins.includes(input.origin);
  if (!ownPage && !isOriginAllowed(found.agent.allowedOrigins, input.origin)) {
    throw new AppError("origin_forbidden", "This page's origin is not allowed to use this agent.");
  }
  return found;
}
