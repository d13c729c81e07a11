import { z } from "zod";
import { answerInstructionsSchema, answerModelSchema } from "./answer-models.js";
import { behaviorRuleSchema, behaviorRulesSchema } from "./behavior-rules.js";
import { httpUrlSchema, isoTimestampSchema } from "./common.js";
import { officeHoursSchema, replyTimes } from "./office-hours.js";
import { agentRoutingSchema } from "./routing.js";
import { brandingDisplayModes, brandingSchema } from "./widget.js";
import { agentIdentitySchema, identityModeSchema } from "./visitor-identity.js";

/**
 * The rules of every agent setting, in one place: the admin CLI's `agent create/update` and the
 * console's agent routes (POST/PATCH /api/v1/console/agents) validate with these same schemas.
 */
export const agentSettingSchemas = {
  name: z.string().trim().min(1).max(200),
  origins: z.array(z.string().min(1).max(300)).min(1, "give at least one origin"),
  vertical: z.enum(["general", "ecommerce"]),
  personaName: z.string().trim().min(1).max(100),
  tone: z.string().trim().min(1).max(200),
  primaryColor: z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, "a hex colour such as #2563eb"),
  starterPrompts: z.array(z.string().trim().min(1).max(200)).max(10),
  language: z.string().regex(/^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/, "a language tag such as en or pt-BR"),
  behaviorRules: behaviorRulesSchema,
  /** What the agent overrides of the service's branding line; a member left out keeps the service's. */
  branding: z
    .object({
      show: z.boolean().optional().describe("Whether the widget shows the branding line at all."),
      label: z.string().trim().min(1).max(100).optional(),
      url: httpUrlSchema.optional().describe("Where the branding line links to."),
      logo_url: httpUrlSchema.optional(),
      display_mode: z.enum(brandingDisplayModes).optional(),
    })
    .strict(),
  /** When a person may answer (null: always); see contracts/office-hours.ts. */
  officeHours: officeHoursSchema,
  awayMessage: z.string().trim().min(1).max(500),
  replyTime: z.enum(replyTimes),
  answerModel: answerModelSchema,
  instructions: answerInstructionsSchema.partial(),
  /** How new human requests find an operator (contracts/routing.ts). */
  routing: agentRoutingSchema,
};

export type BrandingOverrides = z.infer<typeof agentSettingSchemas.branding>;

/** An agent as the console reads it: every setting, and the branding the widget really shows. */
export const consoleAgentSchema = z.object({
  id: z.string().describe("The agent's id (`agt_…`)."),
  workspace_id: z.string(),
  name: z.string(),
  published: z.boolean().describe("Whether the widget may start sessions with it (a draft answers init with `agent_not_found`)."),
  vertical: z.enum(["general", "ecommerce"]),
  allowed_origins: z.array(z.string()).describe("The page origins whose pages may start a widget session (`https://*.example.com` is a subdomain wildcard)."),
  persona: z.object({ name: z.string(), tone: z.string() }),
  theme: z.object({ primary: z.string() }),
  starter_prompts: z.array(z.string()),
  language_default: z.string(),
  behavior_rules: z.array(behaviorRuleSchema),
  branding: brandingSchema.describe("The branding line the widget shows: the service's, with the agent's overrides applied."),
  branding_overrides: agentSettingSchemas.branding.describe("What the agent itself sets of its branding (the rest is the service's)."),
  office_hours: officeHoursSchema.nullable().describe("When a person may answer, in its time zone; null: always open."),
  away_message: z.string().nullable().describe("What the widget says outside office hours; null: none."),
  reply_time: z.enum(replyTimes).nullable().describe("How soon a person usually replies, shown by the widget inside office hours; null: not shown."),
  answer_model: answerModelSchema,
  instructions: answerInstructionsSchema.describe("How the agent answers: extra rules, answer length, and what it does when unsure."),
  identity: agentIdentitySchema.describe("Verified visitor identity: the mode, and when the identity secret was created (the secret itself is never returned)."),
  routing: agentRoutingSchema.describe("How the agent's new requests for a person find an operator."),
  created_at: isoTimestampSchema,
  updated_at: isoTimestampSchema,
});
export type ConsoleAgent = z.infer<typeof consoleAgentSchema>;

export const consoleAgentResponseSchema = z.object({ data: consoleAgentSchema });
export const consoleAgentListResponseSchema = z.object({ data: z.array(consoleAgentSchema) });

/** POST /api/v1/console/agents. */
export const createConsoleAgentBodySchema = z
  .object({
    name: agentSettingSchemas.name,
    site_url: httpUrlSchema.optional().describe("The site's address (any page of it): its origin becomes the first allowed origin."),
    origins: z.array(z.string().min(1).max(300)).max(50).optional().describe("More allowed origins (`https://shop.example.com`, `https://*.example.com`)."),
    vertical: agentSettingSchemas.vertical.optional(),
    draft: z.boolean().optional().describe("Create it unpublished (default: published)."),
    persona_name: agentSettingSchemas.personaName.optional(),
    tone: agentSettingSchemas.tone.optional(),
    primary_color: agentSettingSchemas.primaryColor.optional(),
    starter_prompts: agentSettingSchemas.starterPrompts.optional(),
    language: agentSettingSchemas.language.optional(),
  })
  .refine((body) => body.site_url !== undefined || (body.origins !== undefined && body.origins.length > 0), {
    message: "give the site's address (site_url) or at least one origin",
    path: ["site_url"],
  });
export type CreateConsoleAgentBody = z.infer<typeof createConsoleAgentBodySchema>;

/** The settings PATCH /api/v1/console/agents/{id} may change; absent: unchanged; null: back to the default. */
export const CONSOLE_AGENT_UPDATE_FIELDS = [
  "name",
  "origins",
  "vertical",
  "persona_name",
  "tone",
  "primary_color",
  "starter_prompts",
  "language",
  "behavior_rules",
  "branding",
  "office_hours",
  "away_message",
  "reply_time",
  "answer_model",
  "instructions",
  "identity_mode",
  "routing",
] as const;

export const updateConsoleAgentBodySchema = z
  .object({
    name: agentSettingSchemas.name.optional(),
    origins: agentSettingSchemas.origins.max(50).optional().describe("Replaces the whole list of allowed origins."),
    vertical: agentSettingSchemas.vertical.optional(),
    persona_name: agentSettingSchemas.personaName.nullable().optional().describe("null: the agent's name."),
    tone: agentSettingSchemas.tone.nullable().optional().describe("null: `friendly`."),
    primary_color: agentSettingSchemas.primaryColor.nullable().optional().describe("null: `#2563eb`."),
    starter_prompts: agentSettingSchemas.starterPrompts.optional().describe("Replaces them all (`[]` removes them)."),
    language: agentSettingSchemas.language.nullable().optional().describe("null: `en`."),
    behavior_rules: agentSettingSchemas.behaviorRules.optional().describe("Replaces every proactive rule (`[]` removes them)."),
    branding: agentSettingSchemas.branding.nullable().optional().describe("Replaces the agent's branding overrides; null (or `{}`) goes back to the service's branding."),
    office_hours: agentSettingSchemas.officeHours.nullable().optional().describe("Replaces the office hours (time zone and every day); null: always open."),
    away_message: agentSettingSchemas.awayMessage.nullable().optional().describe("Shown by the widget outside office hours (at most 500 characters); null: none."),
    reply_time: agentSettingSchemas.replyTime.nullable().optional().describe("`minutes`, `hours` or `day`: shown by the widget inside office hours; null: not shown."),
    answer_model: answerModelSchema.optional(),
    instructions: answerInstructionsSchema.partial().optional().describe("The members given replace the agent's; the others are kept."),
    identity_mode: identityModeSchema
      .optional()
      .describe("`off`: init ignores identities; `optional`: anonymous visitors allowed, a claimed `user_id` must verify; `required`: init needs a verified `user_id`. The last two need an identity secret."),
    routing: agentRoutingSchema.optional().describe("Replaces the routing (`team`: operators of the workspace; an unknown id is refused)."),
  })
  .refine((body) => CONSOLE_AGENT_UPDATE_FIELDS.some((field) => body[field] !== undefined), {
    message: "give at least one setting to change",
    path: ["name"],
  });
export type UpdateConsoleAgentBody = z.infer<typeof updateConsoleAgentBodySchema>;

/** GET /api/v1/console/agents/{id}/snippet: what to paste into the site's pages. */
export const agentSnippetResponseSchema = z.object({
  data: z.object({
    agent_id: z.string(),
    html: z.string().describe('The script tag: `<script src="{public URL}/widget.js" data-agent-id="agt_…" async></script>`.'),
    script_url: z.string(),
    demo_url: z.string().nullable().describe("A page of this service showing the widget, to try it without a website (null when FRONTDESK_DEMO is off)."),
    published: z.boolean().describe("A draft's snippet works only once the agent is published."),
    allowed_origins: z.array(z.string()).describe("The snippet works only on pages of these origins."),
  }),
});
