import type { Branding, WidgetAgent } from "@frontdesk/contracts";
import type { Config } from "../config/config.js";
import type { Agent } from "../tenants/agent.js";

export function presentAgent(agent: Agent): WidgetAgent {
  return {
    id: agent.id,
    name: agent.name,
    persona: { name: agent.personaName, tone: agent.personaTone },
    theme: { primary: agent.theme.primary },
    starter_prompts: agent.starterPrompts,
    language_default: agent.languageDefault,
  };
}

/** The service's branding, with whatever the agent overrides. */
export function presentBranding(agent: Agent, config: Config): Branding {
  return {
    show: agent.branding.show ?? true,
    label: agent.branding.label ?? config.branding.label,
    url: agent.branding.url ?? config.branding.url,
    logo_url: agent.branding.logo_url ?? `${config.publicUrl}/widget/logo.svg`,
    display_mode: agent.branding.display_mode ?? "logo_and_label",
  };
}
