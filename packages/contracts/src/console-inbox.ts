import { z } from "zod";
import { systemMessageCodeSchema } from "./system-messages.js";
import { conversationNoteSchema } from "./conversation-notes.js";
import { isoTimestampSchema } from "./common.js";
import { conversationLabelSchema } from "./labels.js";
import { conversationSnoozeSchema } from "./snooze.js";
import { attachmentSchema } from "./attachments.js";
import { citationSchema, conversationStatuses, leadSchema, messageRoles, satisfactionRatings, type ConversationStatus } from "./widget.js";
import { visitorIdentitySchema } from "./visitor-identity.js";

/**
 * What the console reads: the conversation list, one conversation, the messages since a seq, and
 * the operator's notifications (GET /api/v1/console/conversations…, /notifications).
 */

export const CONVERSATION_PAGE_DEFAULT = 25;
export const CONVERSATION_PAGE_MAX = 100;
export const MESSAGES_PAGE_DEFAULT = 100;
export const MESSAGES_PAGE_MAX = 500;
export const NOTIFICATION_PAGE_DEFAULT = 50;
export const NOTIFICATION_PAGE_MAX = 100;
export const MAX_SEARCH_LENGTH = 200;
const MAX_SEQ = 2_147_483_647;

/** An id in a path or a filter: other characters, or over 64, is a 422; an unknown one a 404 (or no match). */
export const consoleIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be an id");

/** A non-negative integer written in a query string (`?after_seq=12`). */
const querySeqSchema = z
  .string()
  .regex(/^\d{1,10}$/, "must be a non-negative integer")
  .transform(Number)
  .pipe(z.number().int().max(MAX_SEQ, `must be at most ${MAX_SEQ}`));

const queryLimitSchema = (max: number) =>
  z
    .string()
    .regex(/^\d{1,4}$/, `must be an integer from 1 to ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(1, `must be an integer from 1 to ${max}`).max(max, `must be an integer from 1 to ${max}`));

const cursorSchema = z.string().min(1).max(512);

export const conversationListQuerySchema = z.object({
  status: z
    .string()
    .max(100)
    .refine(
      (value) => value.split(",").every((status) => (conversationStatuses as readonly string[]).includes(status.trim())),
      `must be ${conversationStatuses.join(", ")} or several of them, comma-separated`,
    )
    .transform((value) => value.split(",").map((status) => status.trim() as ConversationStatus))
    .optional()
    .describe("One status or several, comma-separated (`awaiting_human,human`); all when omitted."),
  agent_id: consoleIdSchema.optional().describe("Only this agent's conversations."),
  assignee: z
    .union([z.literal("me"), z.literal("none"), consoleIdSchema])
    .optional()
    .describe("`me` (assigned to the signed-in operator), `none` (unassigned) or an operator id."),
  q: z
    .string()
    .trim()
    .min(1)
    .max(MAX_SEARCH_LENGTH)
    .optional()
    .describe(
      "Conversations with a visitor, bot or operator message matching these words (whole words, any case, no stemming; " +
        '`"a phrase"`, `or` and `-word` as in web search).',
    ),
  label_id: consoleIdSchema.optional().describe("Only the conversations carrying this label of the workspace (another id is 404 `label_not_found`)."),
  snoozed: z
    .enum(["true", "false"])
    .transform((value) => value === "true")
    .optional()
    .describe("`true`: only snoozed conversations; `false`: only those not snoozed (the open view); both when omitted."),
  cursor: cursorSchema.optional().describe("`next_cursor` of the previous page."),
  limit: queryLimitSchema(CONVERSATION_PAGE_MAX).optional().describe(`1–${CONVERSATION_PAGE_MAX}, ${CONVERSATION_PAGE_DEFAULT} by default.`),
});
export type ConversationListQuery = z.infer<typeof conversationListQuerySchema>;

export const consoleAssigneeSchema = z.object({ id: z.string(), name: z.string() });

export const conversationListItemSchema = z.object({
  id: z.string(),
  agent_id: z.string(),
  status: z.enum(conversationStatuses),
  assignee: consoleAssigneeSchema.nullable(),
  visitor: z.object({ id: z.string(), anon_id: z.string(), identity: visitorIdentitySchema.nullable().describe("The site's verified user; null: anonymous.") }),
  last_message: z
    .object({
      seq: z.number().int().nullable(),
      role: z.enum(messageRoles),
      excerpt: z.string().describe("The message's first 200 characters; for files sent without words, their names (`📎 guide.pdf`)."),
      created_at: isoTimestampSchema,
    })
    .nullable(),
  unread_count: z.number().int().describe("Visitor messages the signed-in operator has not read (see POST /conversations/{id}/read)."),
  labels: z.array(conversationLabelSchema).describe("Its labels, in the order they were put on."),
  human_requested_at: isoTimestampSchema.nullable(),
  snooze: conversationSnoozeSchema.nullable().describe("Snoozed until then (or the visitor's next message); null: not snoozed."),
  created_at: isoTimestampSchema,
  last_activity_at: isoTimestampSchema,
});
export type ConversationListItem = z.infer<typeof conversationListItemSchema>;

export const conversationListResponseSchema = z.object({
  data: z.array(conversationListItemSchema),
  next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page."),
});

/** A message as the console shows it: with its seq, author, citations and low-confidence flag. */
export const consoleMessageSchema = z.object({
  id: z.string(),
  seq: z.number().int().nullable(),
  role: z.enum(messageRoles),
  content: z.string(),
  /** Absent from an operator's own reply as POST …/messages answers it (never a system message). */
  code: systemMessageCodeSchema.optional(),
  citations: z.array(citationSchema),
  low_confidence: z.boolean(),
  /** The operator who wrote it (role `operator`) or who joined (system `operator_joined`); null otherwise. */
  author: z.object({ id: z.string().nullable(), name: z.string() }).nullable(),
  created_at: isoTimestampSchema,
  /** The curated answer a bot reply was served from ("Fix this answer"); null otherwise (absent from older clients' events). */
  curated_answer_id: z.string().nullable().optional(),
  /** The files sent with it, served by the console's route; absent when none. */
  attachments: z.array(attachmentSchema).optional(),
});
export type ConsoleMessage = z.infer<typeof consoleMessageSchema>;

export const conversationDetailSchema = z.object({
  id: z.string(),
  agent_id: z.string(),
  status: z.enum(conversationStatuses),
  assignee: consoleAssigneeSchema.nullable(),
  human_requested_at: isoTimestampSchema.nullable(),
  human_request_reason: z.string().nullable(),
  snooze: conversationSnoozeSchema.nullable().describe("Snoozed until then (or the visitor's next message); null: not snoozed."),
  seq: z.number().int().describe("The conversation's latest event seq when read: resume with GET …/messages?after_seq=<seq>."),
  visitor: z.object({
    id: z.string(),
    anon_id: z.string(),
    identity: visitorIdentitySchema.nullable().describe("The site's signed-in user, verified by init's `user_hash`; null: an anonymous visitor. A lead's name and e-mail are the visitor's claims, never verified."),
    first_page_url: z.string().nullable(),
    last_page_url: z.string().nullable(),
    user_agent: z.string().nullable(),
    lead: leadSchema.nullable(),
  }),
  satisfaction: z.object({ rating: z.enum(satisfactionRatings), comment: z.string().nullable(), rated_at: isoTimestampSchema }).nullable(),
  coupon: z.object({ code: z.string(), applied_at: isoTimestampSchema }).nullable(),
  labels: z.array(conversationLabelSchema).describe("Its labels, in the order they were put on."),
  unread_count: z.number().int(),
  last_read_seq: z.number().int().nullable(),
  messages: z.array(consoleMessageSchema),
  has_earlier_messages: z.boolean(),
  notes: z.array(conversationNoteSchema).describe("Operators' internal notes (the latest 200, oldest first), never shown to the visitor: each goes after the message of its `after_seq`."),
  created_at: isoTimestampSchema,
  last_activity_at: isoTimestampSchema,
});
export const conversationDetailResponseSchema = z.object({ data: conversationDetailSchema });

export const messagesSinceQuerySchema = z.object({
  after_seq: querySeqSchema.optional().describe("The last seq the client has; 0 (the default) reads from the start."),
  limit: queryLimitSchema(MESSAGES_PAGE_MAX).optional().describe(`1–${MESSAGES_PAGE_MAX}, ${MESSAGES_PAGE_DEFAULT} by default.`),
});

export const messagesSinceResponseSchema = z.object({
  data: z.object({
    messages: z.array(consoleMessageSchema),
    has_more: z.boolean().describe("More messages follow: ask again with `after_seq` = the last message's seq."),
    conversation: z.object({
      status: z.enum(conversationStatuses),
      assignee: consoleAssigneeSchema.nullable(),
      human_requested_at: isoTimestampSchema.nullable(),
      seq: z.number().int(),
      updated_seq: z.number().int().nullable(),
    }),
  }),
});

export const markConversationReadBodySchema = z.object({
  seq: z.number().int().min(0).max(MAX_SEQ).optional(),
});
export const markConversationReadResponseSchema = z.object({
  data: z.object({ conversation_id: z.string(), last_read_seq: z.number().int(), unread_count: z.number().int() }),
});

export const notificationListQuerySchema = z.object({
  cursor: cursorSchema.optional().describe("`next_cursor` of the previous page."),
  limit: queryLimitSchema(NOTIFICATION_PAGE_MAX).optional().describe(`1–${NOTIFICATION_PAGE_MAX}, ${NOTIFICATION_PAGE_DEFAULT} by default.`),
});

export const notificationSchema = z.object({
  id: z.string(),
  kind: z.string(),
  conversation_id: z.string().nullable(),
  payload: z.record(z.string(), z.unknown()),
  read_at: isoTimestampSchema.nullable(),
  created_at: isoTimestampSchema,
});
export type ConsoleNotification = z.infer<typeof notificationSchema>;

export const notificationListResponseSchema = z.object({
  data: z.array(notificationSchema),
  next_cursor: z.string().nullable(),
  unread_count: z.number().int(),
});

export const markNotificationsReadBodySchema = z
  .object({
    ids: z.array(consoleIdSchema).min(1).max(NOTIFICATION_PAGE_MAX).optional(),
    all: z.literal(true).optional(),
  })
  .refine((body) => (body.ids === undefined) !== (body.all === undefined), "give either `ids` or `all: true`");

export const markNotificationsReadResponseSchema = z.object({
  data: z.object({ marked: z.number().int(), unread_count: z.number().int() }),
});
