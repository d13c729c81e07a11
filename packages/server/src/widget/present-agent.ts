import type { Availability, Branding, WidgetAgent } from "@frontdesk/contracts";
import type { Config } from "../config/config.js";
import type { Agent } from "../tenants/agent.js";
import { officeHoursStatus } from "../tenants/agents.js";

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

/** The agent's office hours at `now` as the widget shows them (docs/widget.md, "Office hours"). */
export function presentAvailability(agent: Agent, now: Date): Availability {
  const status = officeHoursStatus(agent.officeHours, now);
  return {
    open_now: status.openNow,
    next_open_at: status.nextOpenAt?.toISOString() ?? null,
    away_message: agent.awayMessage,
    reply_time: agent.replyTime,
  };
}
