import { z } from "zod";
import { isoTimestampSchema } from "./common.js";
import { MAX_MESSAGE_LENGTH } from "./messages.js";
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from "./storable-text.js";

/**
 * Internal notes (POST /api/v1/console/conversations/{id}/notes): operators' words about a
 * conversation, for each other only. A note never reaches the visitor, the widget API, the
 * conversation's channel, a mail to the visitor, the visitor's own export or the model's prompt.
 * `@name` in a note mentions the workspace's operator of that name.
 */

export const MAX_NOTE_LENGTH = MAX_MESSAGE_LENGTH;
/** The notes a conversation's detail shows, the latest ones. */
export const CONVERSATION_NOTES_MAX = 200;

export const createNoteBodySchema = z.object({
  content: z
    .string()
    .max(MAX_NOTE_LENGTH, `must be at most ${MAX_NOTE_LENGTH} characters`)
    .refine((value) => value.trim().length > 0, "must not be blank")
    .refine(isStorableText, UNSTORABLE_TEXT_MESSAGE)
    .describe("The note. `@Name` mentions the workspace's operator of that name (their full name, or their first name when only one operator has it)."),
});

export const conversationNoteSchema = z.object({
  id: z.string(),
  conversation_id: z.string(),
  content: z.string(),
  /** Who wrote it; `id` null once that operator was removed. */
  author: z.object({ id: z.string().nullable(), name: z.string() }),
  /** The operators the note mentions (each notified). */
  mentions: z.array(z.object({ id: z.string(), name: z.string() })),
  after_seq: z.number().int().describe("The conversation's latest seq when the note was written: the note comes after the message of that seq."),
  created_at: isoTimestampSchema,
});
export type ConversationNote = z.infer<typeof conversationNoteSchema>;

export const conversationNoteResponseSchema = z.object({ data: conversationNoteSchema });
export const conversationNoteListResponseSchema = z.object({ data: z.array(conversationNoteSchema) });
