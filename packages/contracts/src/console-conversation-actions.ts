import { z } from "zod";
import { isoTimestampSchema } from "./common.js";
import { MAX_MESSAGE_LENGTH } from "./messages.js";
import { citationSchema, conversationStatuses } from "./widget.js";
import { attachmentIdsSchema, attachmentSchema } from "./attachments.js";

/**
 * What the console changes in a conversation: POST /api/v1/console/conversations/{id}/assign,
 * /messages, /release, /close and /typing.
 */

export const conversationIdParamsSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be an id"),
});

export const assignConversationBodySchema = z.object({
  operator_id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, "must be an id")
    .optional()
    .describe("Admins only: the operator of the workspace to assign; the signed-in operator when omitted."),
});

export const operatorMessageBodySchema = z
  .object({
    content: z.string().max(MAX_MESSAGE_LENGTH).describe("The text; it may be empty when `attachment_ids` sends files."),
    attachment_ids: attachmentIdsSchema.optional(),
  })
  .refine((body) => body.content.trim().length > 0 || (body.attachment_ids?.length ?? 0) > 0, { message: "must not be blank", path: ["content"] });

export const operatorTypingBodySchema = z.object({
  typing: z.boolean().optional().describe("`false` when the operator stopped typing; an empty body means `true`."),
});

/** A conversation's state after a console action. */
export const conversationStateSchema = z.object({
  id: z.string(),
  status: z.enum(conversationStatuses),
  assignee: z.object({ id: z.string(), name: z.string() }).nullable(),
  human_requested_at: isoTimestampSchema.nullable(),
  updated_seq: z.number().int().nullable().describe("The seq of the latest state change (its `conversation.updated`)."),
});
export const conversationStateResponseSchema = z.object({ data: conversationStateSchema });

export const operatorMessageSchema = z.object({
  id: z.string(),
  seq: z.number().int(),
  role: z.literal("operator"),
  content: z.string(),
  citations: z.array(citationSchema),
  author: z.object({ id: z.string(), name: z.string() }),
  created_at: isoTimestampSchema,
  attachments: z.array(attachmentSchema).optional().describe("The files sent with it; absent when none."),
});
export const operatorMessageResponseSchema = z.object({ data: operatorMessageSchema });
