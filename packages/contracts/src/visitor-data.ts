import { z } from "zod";
import { isoTimestampSchema } from "./common.js";
import { answerRatings } from "./answer-feedback.js";
import { consoleIdSchema } from "./console-inbox.js";
import { exportedAttachmentSchema } from "./attachments.js";
import { citationSchema, conversationStatuses, leadSchema, messageRoles, satisfactionRatings } from "./widget.js";
import { userIdSchema, visitorIdentitySchema } from "./visitor-identity.js";

/**
 * A visitor's data (GDPR access and erasure requests): the export's shape, what an erasure
 * counts, and the realtime event that tells consoles a conversation is gone.
 */

/** ?agent_id=…&user_id=…: a verified user's visitor of one agent (the site's own id for them), for erasure and export by user id. */
export const userVisitorQuerySchema = z.object({
  agent_id: consoleIdSchema.describe("The agent whose identity secret verified the user."),
  user_id: userIdSchema.describe("The site's id of its user, as init's `user_id` gave it."),
});

export const visitorParamsSchema = z.object({ id: consoleIdSchema.describe("The visitor's id (`visitor_id` of init, of a conversation or of a lead).") });

export const exportedMessageSchema = z.object({
  id: z.string(),
  role: z.enum(messageRoles),
  content: z.string(),
  citations: z.array(citationSchema),
  /** The operator's name as shown to the visitor (role `operator`), else null. */
  author_name: z.string().nullable(),
  /** The visitor's rating of a bot answer (👍/👎), else null. */
  rating: z.object({ rating: z.enum(answerRatings), comment: z.string().nullable(), rated_at: isoTimestampSchema }).nullable(),
  created_at: isoTimestampSchema,
});

export const exportedEventSchema = z.object({
  conversation_id: z.string().nullable(),
  event: z.string(),
  rule_id: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  created_at: isoTimestampSchema,
});

export const exportedConversationSchema = z.object({
  id: z.string(),
  status: z.enum(conversationStatuses),
  page_url: z.string().nullable(),
  last_page_url: z.string().nullable(),
  last_page_context: z.record(z.string(), z.unknown()).nullable(),
  user_agent: z.string().nullable(),
  human_requested_at: isoTimestampSchema.nullable(),
  human_request_reason: z.string().nullable(),
  satisfaction: z.object({ rating: z.enum(satisfactionRatings), comment: z.string().nullable(), rated_at: isoTimestampSchema.nullable() }).nullable(),
  coupon: z.object({ code: z.string(), applied_at: isoTimestampSchema.nullable() }).nullable(),
  created_at: isoTimestampSchema,
  last_activity_at: isoTimestampSchema,
  closed_at: isoTimestampSchema.nullable(),
  labels: z.array(z.string()).describe("The names of the workspace's labels the conversation carries."),
  messages: z.array(exportedMessageSchema).describe("Every message of the conversation, oldest first (the visitor's, the bot's, operators' and system lines)."),
});

export const visitorExportSchema = z.object({
  format: z.literal("frontdesk.visitor-export.v1"),
  exported_at: isoTimestampSchema,
  workspace_id: z.string(),
  agent_id: z.string(),
  visitor: z.object({
    id: z.string(),
    anonymous_id: z.string(),
    identity: visitorIdentitySchema.nullable().describe("The site's verified user id, with the e-mail and name sent with it; null: an anonymous visitor."),
    created_at: isoTimestampSchema,
    last_seen_at: isoTimestampSchema,
  }),
  conversations: z.array(exportedConversationSchema).describe("The visitor's conversations with the agent, oldest first."),
  leads: z.array(leadSchema).describe("The leads the visitor submitted (one per e-mail; a lead points at the last visitor who submitted it)."),
  events: z.array(exportedEventSchema).describe("The widget's telemetry events of the visitor, oldest first."),
  attachments: z
    .array(exportedAttachmentSchema)
    .describe("The files of the visitor's conversations (theirs and operators'), oldest first: metadata, and a link to the bytes valid for an hour."),
});
export type VisitorExport = z.infer<typeof visitorExportSchema>;
export const visitorExportResponseSchema = z.object({ data: visitorExportSchema });

/** What one erasure (or one retention run) removed: counts only, never an identifier of the person. */
export const erasureCountsSchema = z.object({
  visitors: z.number().int(),
  conversations: z.number().int(),
  messages: z.number().int(),
  leads: z.number().int(),
  events: z.number().int(),
  satisfaction_ratings: z.number().int(),
  answer_ratings: z.number().int().describe("Ratings of bot answers (👍/👎) removed with their messages."),
  coupons: z.number().int(),
  notifications: z.number().int(),
});
export type ErasureCounts = z.infer<typeof erasureCountsSchema>;

/** Who asked for an erasure; `retention` is the scheduled purge of FRONTDESK_RETENTION_DAYS. */
export const erasureRequesters = ["visitor", "operator", "cli", "retention"] as const;
export type ErasureRequester = (typeof erasureRequesters)[number];

/**
 * `conversation.deleted` on the workspace channel (and the conversation's own channel): the
 * conversation and everything in it are gone; a console drops it from its lists and closes it.
 */
export const conversationDeletedEventSchema = z.object({
  conversation_id: z.string(),
  agent_id: z.string(),
  reason: z.enum(["erasure", "retention"]),
  deleted_at: isoTimestampSchema,
});
export type ConversationDeletedEvent = z.infer<typeof conversationDeletedEventSchema>;
