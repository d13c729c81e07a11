import type { ConsoleAgent } from "@frontdesk/contracts";
import type { Config } from "../../config/config.js";
import { presentAdminAgent } from "../../admin/present.js";
import type { Agent } from "../../tenants/agent.js";
import { presentBranding } from "../../widget/present-agent.js";

/** An agent as the console reads it: every setting, and the branding line the widget really shows. */
export function presentConsoleAgent(agent: Agent, config: Config): ConsoleAgent {
  return {
    ...presentAdminAgent(agent),
    theme: { primary: agent.theme.primary },
    branding: presentBranding(agent, config),
    branding_overrides: agent.branding,
  };
}
