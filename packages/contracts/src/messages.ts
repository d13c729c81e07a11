import { z } from "zod";
import { boundedObjectSchema, httpUrlSchema } from "./common.js";
import { citationSchema } from "./widget.js";
import { attachmentIdsSchema } from "./attachments.js";

export const MAX_MESSAGE_LENGTH = 4000;

/** POST /messages and /messages/stream. */
export const messageBodySchema = z
  .object({
    message: z.string().max(MAX_MESSAGE_LENGTH).describe("The visitor's text; it may be empty when `attachment_ids` sends files (the bot then says nothing)."),
    page_url: httpUrlSchema.optional(),
    page_context: boundedObjectSchema(16 * 1024).optional(),
    attachment_ids: attachmentIdsSchema.optional(),
  })
  .refine((body) => body.message.trim().length > 0 || (body.attachment_ids?.length ?? 0) > 0, { message: "must not be blank", path: ["message"] });
export type MessageBody = z.infer<typeof messageBodySchema>;

/** An `Idempotency-Key`: 1–255 printable ASCII characters (the widget sends a random UUID per message). */
export const IDEMPOTENCY_KEY = /^[\x20-\x7E]{1,255}$/;

/**
 * The headers of POST /messages(/stream), and of an operator's reply in the console, that are validated: an
 * optional `Idempotency-Key` (others pass through untouched). A repeat of the key in the conversation
 * within 24 hours answers the first answer (or reply) again.
 */
export const messageHeadersSchema = z.looseObject({
  "idempotency-key": z.string().regex(IDEMPOTENCY_KEY, "must be 1-255 printable ASCII characters").optional(),
});

export const answerSchema = z.object({
  message_id: z.string(),
  conversation_id: z.string(),
  content: z.string(),
  citations: z.array(citationSchema),
  low_confidence: z.boolean(),
  /** The reply is an operator's curated answer ("Fix this answer"); absent otherwise. */
  curated: z.boolean().optional(),
  awaiting_human: z.boolean().optional(),
  /** An operator took the conversation over while the answer was generated: the reply was not kept. */
  discarded: z.boolean().optional(),
});
export type Answer = z.infer<typeof answerSchema>;
export const answerResponseSchema = z.object({ data: answerSchema });

/** The frames of POST /messages/stream, each sent as `data: <json>` and a blank line. */
export const tokenFrameSchema = z.object({ event: z.literal("token"), token: z.string() });
export const citationsFrameSchema = z.object({ event: z.literal("citations"), citations: z.array(citationSchema) });
export const streamErrorCodes = ["generation_failed", "generation_timeout", "internal_error"] as const;
export const errorFrameSchema = z.object({ event: z.literal("error"), code: z.enum(streamErrorCodes), message: z.string() });
export const doneFrameSchema = z.object({
  event: z.literal("done"),
  conversation_id: z.string(),
  message_id: z.string().optional(),
  low_confidence: z.boolean().optional(),
  /** The reply is an operator's curated answer ("Fix this answer"); absent otherwise. */
  curated: z.boolean().optional(),
  awaiting_human: z.boolean().optional(),
  /** An operator took the conversation over while the answer was generated: the reply was not kept. */
  discarded: z.boolean().optional(),
});
export const streamFrameSchema = z.discriminatedUnion("event", [tokenFrameSchema, citationsFrameSchema, errorFrameSchema, doneFrameSchema]);
export type StreamFrame = z.infer<typeof streamFrameSchema>;
