import { z } from "zod";
import { behaviorRuleSchema, couponCodeSchema } from "./behavior-rules.js";
import { boundedObjectSchema, httpUrlSchema, isoTimestampSchema } from "./common.js";
import { availabilitySchema } from "./office-hours.js";
import { systemMessageCodeSchema } from "./system-messages.js";
import { initIdentityFields } from "./visitor-identity.js";
import { attachmentSchema } from "./attachments.js";

export const agentIdSchema = z.string().min(1).max(64);

export const initBodySchema = z.object({
  agent_id: agentIdSchema,
  page_url: httpUrlSchema,
  anon_id: z
    .string()
    .min(8)
    .max(128)
    .regex(/^[A-Za-z0-9_-]+$/, "letters, digits, '_' and '-' only")
    .optional(),
  new_conversation: z.boolean().optional(),
  /** The token of an e-mailed "continue the conversation" link: init resumes that conversation. */
  resume_token: z.string().min(16).max(1024).regex(/^[A-Za-z0-9_.-]+$/, "not a resume token").optional(),
  /** A signed-in user the site vouches for (`user_id`, `user_hash`, `email`, `name`): see visitor-identity.ts. */
  ...initIdentityFields,
  /** The browser's IANA time zone (`Intl.DateTimeFormat().resolvedOptions().timeZone`): operators see the visitor's local time. One that is not a known zone is ignored. */
  time_zone: z.string().max(100).optional(),
});
export type InitBody = z.infer<typeof initBodySchema>;

export const citationSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  /** The cited document's title, when it has one (additive: older messages have none). */
  title: z.string().optional(),
});
export type Citation = z.infer<typeof citationSchema>;

/**
 * A conversation's state: `bot` (the bot answers), `awaiting_human` (a person was asked for; the
 * bot is quiet), `human` (an operator took it over), `closed` (a visitor message reopens it in `bot`).
 */
export const conversationStatuses = ["bot", "awaiting_human", "human", "closed"] as const;
export type ConversationStatus = (typeof conversationStatuses)[number];

export const messageRoles = ["visitor", "bot", "operator", "system"] as const;
export const conversationMessageSchema = z.object({
  id: z.string(),
  /** The message's place among its conversation's events (null: stored before events were counted). */
  seq: z.number().int().nullable(),
  role: z.enum(messageRoles),
  content: z.string(),
  code: systemMessageCodeSchema,
  citations: z.array(citationSchema),
  /** The operator who wrote it (role `operator`) or who joined (system `operator_joined`), by name; null otherwise. */
  author: z.object({ name: z.string() }).nullable(),
  created_at: isoTimestampSchema,
  /** A bot reply that is an operator's curated answer ("Fix this answer"); absent otherwise. */
  curated: z.boolean().optional(),
  /** The files sent with it (images, PDFs); absent when none. */
  attachments: z.array(attachmentSchema).optional(),
});
export type ConversationMessage = z.infer<typeof conversationMessageSchema>;

export const brandingDisplayModes = ["logo_and_label", "logo_only", "label_only"] as const;
export const brandingSchema = z.object({
  show: z.boolean(),
  label: z.string(),
  url: z.string(),
  logo_url: z.string(),
  display_mode: z.enum(brandingDisplayModes),
});
export type Branding = z.infer<typeof brandingSchema>;

export const widgetAgentSchema = z.object({
  id: z.string(),
  name: z.string(),
  persona: z.object({ name: z.string(), tone: z.string() }),
  theme: z.object({ primary: z.string() }),
  starter_prompts: z.array(z.string()),
  language_default: z.string(),
});
export type WidgetAgent = z.infer<typeof widgetAgentSchema>;

export const reverbSchema = z.object({
  app_key: z.string(),
  host: z.string(),
  port: z.number().int(),
  scheme: z.string(),
});

export const initResponseSchema = z.object({
  data: z.object({
    conversation_id: z.string(),
    visitor_id: z.string(),
    anonymous_id: z.string(),
    jwt: z.string(),
    expires_at: isoTimestampSchema,
    agent: widgetAgentSchema,
    branding: brandingSchema,
    behavior_rules: z.array(behaviorRuleSchema),
    messages: z.array(conversationMessageSchema),
    reverb: reverbSchema,
    availability: availabilitySchema,
  }),
});
export type InitResponse = z.infer<typeof initResponseSchema>;

export const leadBodySchema = z.object({
  email: z.string().trim().max(320).pipe(z.email({ message: "must be a valid e-mail address" })),
  name: z.string().trim().max(200).optional(),
  phone: z.string().trim().max(50).optional(),
  fields: boundedObjectSchema(8192, 50).optional(),
});
export type LeadBody = z.infer<typeof leadBodySchema>;

export const leadSchema = z.object({
  id: z.string(),
  agent_id: z.string(),
  conversation_id: z.string().nullable(),
  visitor_id: z.string().nullable(),
  email: z.string(),
  name: z.string().nullable(),
  phone: z.string().nullable(),
  fields: z.record(z.string(), z.unknown()),
  created_at: isoTimestampSchema,
  updated_at: isoTimestampSchema,
});
export type Lead = z.infer<typeof leadSchema>;
export const leadResponseSchema = z.object({ data: leadSchema });

export const eventBodySchema = z.object({
  event: z.string().min(1).max(100),
  rule_id: z.string().max(100).optional(),
  metadata: boundedObjectSchema(8192).optional(),
});
export type EventBody = z.infer<typeof eventBodySchema>;
export const eventResponseSchema = z.object({ data: z.object({ id: z.string(), event: z.string() }) });

export const requestHumanBodySchema = z.object({ reason: z.string().max(500).optional() });
export const requestHumanResponseSchema = z.object({
  data: z.object({
    conversation_id: z.string(),
    status: z.enum(conversationStatuses),
    human_requested_at: isoTimestampSchema.nullable().describe("The pending request's time; null when an operator already has the conversation without one."),
    reason: z.string().nullable(),
    operators_online: z.boolean().describe("Whether an operator is connected now: when false, offer to leave an e-mail (POST /leads) instead of waiting."),
    outside_hours: z.boolean().describe("Asked outside the agent's office hours: offer to leave an e-mail at once (operators are still alerted)."),
  }),
});

/** GET /conversation and POST /conversation/close: the conversation's state as the visitor sees it. */
export const visitorConversationSchema = z.object({
  status: z.enum(conversationStatuses),
  assignee: z.object({ name: z.string() }).nullable().describe("The operator who has the conversation (`human`, and kept when it is closed)."),
  operators_online: z.boolean().describe("Whether any operator of the workspace is connected now (their presence channel)."),
  human_requested_at: isoTimestampSchema.nullable(),
  updated_seq: z.number().int().nullable().describe("The seq of the latest state change (`conversation.updated`); null before the first."),
});
export const visitorConversationResponseSchema = z.object({ data: visitorConversationSchema });

export const VISITOR_MESSAGES_PAGE_MAX = 100;
const MAX_SEQ = 2_147_483_647;

export const visitorMessagesQuerySchema = z.object({
  after_seq: z
    .string()
    .regex(/^\d{1,10}$/, "must be a non-negative integer")
    .transform(Number)
    .pipe(z.number().int().max(MAX_SEQ, `must be at most ${MAX_SEQ}`))
    .optional()
    .describe("The last seq the widget has (of a message or a `conversation.updated`); 0 (the default) reads from the start."),
  limit: z
    .string()
    .regex(/^\d{1,3}$/, `must be an integer from 1 to ${VISITOR_MESSAGES_PAGE_MAX}`)
    .transform(Number)
    .pipe(z.number().int().min(1).max(VISITOR_MESSAGES_PAGE_MAX))
    .optional()
    .describe(`1–${VISITOR_MESSAGES_PAGE_MAX}, ${VISITOR_MESSAGES_PAGE_MAX} by default.`),
});

export const visitorMessagesResponseSchema = z.object({
  data: z.object({
    messages: z.array(conversationMessageSchema),
    has_more: z.boolean().describe("More messages follow: ask again with `after_seq` = the last message's seq."),
  }),
});

export const typingBodySchema = z.object({ typing: z.boolean().optional() });

export const satisfactionRatings = ["good", "bad"] as const;
export const satisfactionBodySchema = z.object({
  rating: z.enum(satisfactionRatings),
  comment: z.string().max(500).optional(),
});
export const satisfactionResponseSchema = z.object({
  data: z.object({ conversation_id: z.string(), rating: z.enum(satisfactionRatings), comment: z.string().nullable() }),
});

export const couponBodySchema = z.object({
  code: couponCodeSchema,
});
export const couponResponseSchema = z.object({
  data: z.object({ conversation_id: z.string(), coupon_code: z.string(), coupon_applied_at: isoTimestampSchema }),
});

/** Claims of the widget session token (HS256). */
export const sessionClaimsSchema = z.object({
  iss: z.string(),
  iat: z.number().int(),
  exp: z.number().int(),
  agent_id: z.string().min(1),
  visitor_id: z.string().min(1),
  conversation_id: z.string().min(1),
});
export type SessionClaims = z.infer<typeof sessionClaimsSchema>;
