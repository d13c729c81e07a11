import type { AgentRouting, AnswerInstructions, BehaviorRule, Branding, IdentityMode, OfficeHours, ReplyTime } from "@frontdesk/contracts";

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
  /** When a person may answer, in its zone; null: always (see office-hours.ts). */
  officeHours: OfficeHours | null;
  /** What the widget says outside office hours; null: nothing of the agent's own. */
  awayMessage: string | null;
  /** How soon a person usually replies, shown inside office hours; null: not shown. */
  replyTime: ReplyTime | null;
  /** `default` (the workspace's model, else the instance's), `extractive`, or a model name on the workspace's provider. */
  answerModel: string;
  /** Extra rules, answer length and what an unsure answer does, given to the generator. */
  instructions: AnswerInstructions;
  /** Verified visitor identity: `off`, `optional` or `required` (migration 0047). */
  identityMode: IdentityMode;
  /** The identity secret, sealed (identity-secret-box.ts); null: none created yet. Never presented. */
  identitySecretSealed: string | null;
  identitySecretCreatedAt: string | null;
  /** How new human requests find an operator: `manual`, or `round_robin` among the operators online (of `team`, when it names any). */
  routing: AgentRouting;
  createdAt: string;
  updatedAt: string;
}
