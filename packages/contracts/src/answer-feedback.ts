import { z } from "zod";
import { isoTimestampSchema } from "./common.js";

/**
 * A visitor's rating of one bot answer (👍/👎 under the reply in the widget), and the compact
 * reason the answering pipeline stored with the answer, which the console's review queue shows.
 */

export const answerRatings = ["up", "down"] as const;
export type AnswerRating = (typeof answerRatings)[number];

export const ANSWER_FEEDBACK_COMMENT_MAX = 500;

export const answerFeedbackParamsSchema = z.object({
  message_id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be an id").describe("The bot message's id (`message_id` of the answer's `done`)."),
});

export const answerFeedbackBodySchema = z.object({
  rating: z.enum(answerRatings).describe("`up` (👍) or `down` (👎)."),
  comment: z.string().max(ANSWER_FEEDBACK_COMMENT_MAX).optional().describe(`What was wrong or right, at most ${ANSWER_FEEDBACK_COMMENT_MAX} characters.`),
});
export type AnswerFeedbackBody = z.infer<typeof answerFeedbackBodySchema>;

export const answerFeedbackSchema = z.object({
  message_id: z.string(),
  conversation_id: z.string(),
  rating: z.enum(answerRatings),
  comment: z.string().nullable(),
  rated_at: isoTimestampSchema,
});
export const answerFeedbackResponseSchema = z.object({ data: answerFeedbackSchema });

/** A passage the answer was given or cited, as stored with it (its first characters). */
export const answerTracePassageSchema = z.object({
  url: z.string(),
  title: z.string(),
  heading: z.string().nullable(),
  excerpt: z.string().describe("The passage's first 300 characters."),
  cited: z.boolean().describe("The answer cites this passage's page."),
});

/**
 * Why the pipeline answered as it did, stored with each bot answer: the stage that decided the
 * turn, the confidence verdict and its reason, and the passages it read. Null on answers stored
 * before it was kept.
 */
export const answerTraceSchema = z.object({
  decided_by: z.string().describe("The stage that decided the turn: `curated_answer`, `small_talk` or `composition`."),
  sure: z.boolean().nullable().describe("Retrieval's confidence verdict; null when no retrieval ran."),
  reason: z
    .string()
    .nullable()
    .describe("Why retrieval was sure or unsure: `similar_passage`, `words_matched`, `weak_match`, `unknown_words`, `nothing_retrieved`; null when no retrieval ran."),
  unknown_words: z.array(z.string()).describe("The question's distinctive words the knowledge never uses (stemmed)."),
  generator: z.string().nullable(),
  turned_unsure: z.boolean().describe("Retrieval was sure, yet the reply says it is not."),
  fell_back: z.boolean().describe("The configured generator gave no answer and another wrote it."),
  passages: z.array(answerTracePassageSchema),
});
export type AnswerTrace = z.infer<typeof answerTraceSchema>;
