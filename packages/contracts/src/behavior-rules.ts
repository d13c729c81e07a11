import { z } from "zod";
import { httpUrlSchema } from "./common.js";

// Proactive rules (`behavior_rules` of init): what the widget does by itself on the visitor's page.
// A rule has an id (the `rule_id` of its /events telemetry), one trigger and one action:
//   trigger: `page` (the page's URL matches `url`), `time_on_page` (`seconds` on the page),
//            `scroll` (the visitor scrolled `percent` of the page), `exit_intent` (the pointer
//            leaves the window towards the browser's top bar); every trigger but `page` may also
//            name a `url` pattern to restrict it to some pages.
//   action:  `open` (opens the widget), `message` (a bubble next to the launcher with `text`),
//            `cta` (a bubble with a button `label` linking to `url`; on e-commerce agents it may
//            offer a `coupon`, applied through /coupon/apply when the visitor accepts).
// A URL pattern is a path such as `/pricing`, `/blog/*` or `*checkout*` (`*` is any run of
// characters), matched against the page's path and query; one that starts with http(s):// is
// matched against the whole URL. Each rule fires at most once per page view.

export const MAX_BEHAVIOR_RULES = 20;

export const urlPatternSchema = z
  .string()
  .trim()
  .min(1)
  .max(300)
  .refine((value) => value.startsWith("/") || value.startsWith("*") || /^https?:\/\//i.test(value), "a path such as /pricing or /blog/*, or a whole URL starting with http(s)://");

export const couponCodeSchema = z.string().regex(/^[A-Za-z0-9-]{3,32}$/, "3 to 32 letters, digits and dashes");

const restrictTo = { url: urlPatternSchema.optional() };

export const behaviorRuleTriggerSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("page"), url: urlPatternSchema }),
  z.strictObject({ type: z.literal("time_on_page"), seconds: z.number().int().min(0).max(3600), ...restrictTo }),
  z.strictObject({ type: z.literal("scroll"), percent: z.number().int().min(1).max(100), ...restrictTo }),
  z.strictObject({ type: z.literal("exit_intent"), ...restrictTo }),
]);
export type BehaviorRuleTrigger = z.infer<typeof behaviorRuleTriggerSchema>;

export const behaviorRuleActionSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("open") }),
  z.strictObject({ type: z.literal("message"), text: z.string().trim().min(1).max(300) }),
  z.strictObject({
    type: z.literal("cta"),
    text: z.string().trim().min(1).max(300).optional(),
    label: z.string().trim().min(1).max(60),
    url: httpUrlSchema,
    coupon: couponCodeSchema.optional(),
  }),
]);
export type BehaviorRuleAction = z.infer<typeof behaviorRuleActionSchema>;

export const behaviorRuleSchema = z.strictObject({
  id: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_.-]+$/, "letters, digits, '_', '.' and '-' only"),
  trigger: behaviorRuleTriggerSchema,
  action: behaviorRuleActionSchema,
});
export type BehaviorRule = z.infer<typeof behaviorRuleSchema>;

export const behaviorRulesSchema = z
  .array(behaviorRuleSchema)
  .max(MAX_BEHAVIOR_RULES)
  .superRefine((rules, context) => {
    const seen = new Set<string>();
    rules.forEach((rule, index) => {
      if (seen.has(rule.id)) context.addIssue({ code: "custom", path: [index, "id"], message: `the id '${rule.id}' is used twice` });
      seen.add(rule.id);
    });
  });

/** The telemetry the widget posts to /events (with the rule's `rule_id` when a rule caused it). */
export const widgetTelemetryEvents = ["launcher.open", "cta.click", "rule.dismiss", "scroll.trigger"] as const;

/** POST /rules: the agent's rules for a page, without starting a session (nothing is stored). */
export const behaviorRulesBodySchema = z.object({ agent_id: z.string().min(1).max(64), page_url: httpUrlSchema });
export const behaviorRulesResponseSchema = z.object({ data: z.object({ behavior_rules: z.array(behaviorRuleSchema) }) });
