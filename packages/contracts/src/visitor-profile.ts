import { z } from "zod";
import { isoTimestampSchema } from "./common.js";
import { conversationStatuses, leadSchema, satisfactionRatings } from "./widget.js";

/**
 * The visitor's history and profile beside a conversation in the console
 * (GET /api/v1/console/conversations/{id}/visitor): who they are as far as the service knows, their
 * earlier conversations, leads and ratings, and the pages they wrote from in this conversation.
 */

/** At most this many earlier conversations and rated answers are listed, newest first. */
export const VISITOR_HISTORY_MAX = 20;

export const visitorDeviceTypes = ["desktop", "mobile", "tablet", "tv", "bot"] as const;

export const visitorProfileSchema = z.object({
  visitor_id: z.string(),
  anon_id: z.string(),
  first_seen_at: isoTimestampSchema.describe("The visitor's first init with this agent."),
  last_seen_at: isoTimestampSchema.describe("Their latest init."),
  browser: z
    .object({
      name: z.string().nullable().describe("The browser (`Firefox`), null when the user agent does not say."),
      version: z.string().nullable().describe("Its major version (`133`)."),
      os: z.string().nullable().describe("The operating system with its version when known (`Windows 10`, `iOS 18.1`)."),
      device: z.enum(visitorDeviceTypes).nullable().describe("The kind of device, when the user agent says."),
      user_agent: z.string().describe("The raw `User-Agent` it was read from."),
    })
    .nullable()
    .describe("The browser of the conversation's latest init, read from its user agent; null when none was sent."),
  time_zone: z.string().nullable().describe("The visitor's IANA time zone as their browser reported it at init (the console shows their local time); null when unknown."),
  language: z.string().nullable().describe("The browser's first language (`Accept-Language` at init, e.g. `fr-CH`); null when unknown."),
  pages: z
    .array(z.object({ url: z.string(), title: z.string().nullable(), at: isoTimestampSchema }))
    .describe("The pages of this conversation in order: the one it started on, then each other page the visitor wrote from (its `page_url`, titled by `page_context.title`); the last 20."),
  conversations: z
    .array(
      z.object({
        id: z.string(),
        status: z.enum(conversationStatuses),
        current: z.boolean().describe("This conversation."),
        first_message: z.string().nullable().describe("The visitor's first message (its first 120 characters)."),
        created_at: isoTimestampSchema,
        last_activity_at: isoTimestampSchema,
      }),
    )
    .describe(`The visitor's conversations with the agent, this one included, newest first (at most ${VISITOR_HISTORY_MAX}).`),
  leads: z.array(leadSchema).describe("The leads the visitor left, oldest first."),
  ratings: z.object({
    satisfaction: z
      .array(z.object({ conversation_id: z.string(), rating: z.enum(satisfactionRatings), comment: z.string().nullable(), rated_at: isoTimestampSchema }))
      .describe("Their satisfaction ratings of the conversations listed, newest conversation first."),
    answers: z
      .array(
        z.object({
          message_id: z.string(),
          conversation_id: z.string(),
          rating: z.enum(["up", "down"]),
          comment: z.string().nullable(),
          excerpt: z.string().describe("The rated answer's first 200 characters."),
          rated_at: isoTimestampSchema,
        }),
      )
      .describe(`The bot answers they rated 👍 or 👎 in any of their conversations, newest first (at most ${VISITOR_HISTORY_MAX}).`),
  }),
});
export type VisitorProfile = z.infer<typeof visitorProfileSchema>;
export const visitorProfileResponseSchema = z.object({ data: visitorProfileSchema });
