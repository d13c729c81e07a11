import type { Branding } from "@frontdesk/contracts";

export type Vertical = "general" | "ecommerce";

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
  behaviorRules: Record<string, unknown>[];
  createdAt: string;
  updatedAt: string;
}
