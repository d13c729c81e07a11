import type { ConsoleAgent } from "@frontdesk/contracts";
import type { Config } from "../../config/config.js";
import type { Agent } from "../../tenants/agent.js";
import { presentBranding } from "../../widget/present-agent.js";

/** An agent as the console reads it: every setting, and the branding line the widget really shows. */
export function presentConsoleAgent(agent: Agent, config: Config): ConsoleAgent {
  return {
    id: agent.id,
    workspace_id: agent.workspaceId,
    name: agent.name,
    published: agent.published,
    vertical: agent.vertical,
    allowed_origins: agent.allowedOrigins,
    persona: { name: agent.personaName, tone: agent.personaTone },
    theme: { primary: agent.theme.primary },
    starter_prompts: agent.starterPrompts,
    language_default: agent.languageDefault,
    behavior_rules: agent.behaviorRules,
    branding: presentBranding(agent, config),
    branding_overrides: agent.branding,
    created_at: agent.createdAt,
    updated_at: agent.updatedAt,
  };
}
