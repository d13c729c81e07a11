import { z } from "zod";
import { boundedObjectSchema, httpUrlSchema } from "./common.js";
import { citationSchema } from "./widget.js";

export const MAX_MESSAGE_LENGTH = 4000;

/** POST /messages and /messages/stream. */
export const messageBodySchema = z.object({
  message: z
    .string()
    .min(1)
    .max(MAX_MESSAGE_LENGTH)
    .refine((value) => value.trim().length > 0, "must not be blank"),
  page_url: httpUrlSchema.optional(),
  page_context: boundedObjectSchema(16 * 1024).optional(),
});
export type MessageBody = z.infer<typeof messageBodySchema>;

export const answerSchema = z.object({
  message_id: z.string(),
  conversation_id: z.string(),
  content: z.string(),
  citations: z.array(citationSchema),
  low_confidence: z.boolean(),
  awaiting_human: z.boolean().optional(),
});
export type Answer = z.infer<typeof answerSchema>;
export const answerResponseSchema = z.object({ data: answerSchema });

/** The frames of POST /messages/stream, each sent as `data: <json>` and a blank line. */
export type StreamFrame =
  | { event: "token"; token: string }
  | { event: "citations"; citations: z.infer<typeof citationSchema>[] }
  | { event: "error"; code: string; message: string }
  | { event: "done"; conversation_id: string; message_id?: string; low_confidence?: boolean; awaiting_human?: boolean };
