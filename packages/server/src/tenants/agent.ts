import type { BehaviorRule, Branding } from "@frontdesk/contracts";

export type Vertical = "general" | "ecommerce";

/** What an agent's optional settings are when not given at creation, or cleared by `agent update --no-…`. */
export const AGENT_DEFAULTS = {
  vertical: "general",
  personaTone: "friendly",
  primaryColor: "#2563eb",
  languageDefault: "en",
} as const satisfies { vertical: Vertical; personaTone: string; primaryColor: string; languageDefault: string };

export interface Agent {
  id: string;
  workspaceId: string;
  name: string;
  published: boolean;
  vertical: Vertical;
  allowedOrigins: string[];
  personaName: string;
  personaTone: string;
  theme: { primary: string };
  starterPrompts: string[];
  languageDefault: string;
  branding: Partial<Branding>;
  /** Proactive rules (validated when set; see contracts/behavior-rules.ts). */
  behaviorRules: BehaviorRule[];
  createdAt: string;
  updatedAt: string;
}
