import { answerRatings, answerTraceSchema, citationSchema, consoleIdSchema, isoTimestampSchema } from "@frontdesk/contracts";
import { z } from "zod";
import { componentSchemas } from "../../openapi/component-schemas.js";
import { documentMembers } from "../../openapi/document-members.js";
import { errorResponse, jsonResponse } from "../../openapi/route-responses.js";
import { daySchema } from "../analytics/schemas.js";
import { consoleReadErrors, consoleSecurity } from "../console-responses.js";

export const REVIEW_PAGE_DEFAULT = 25;
export const REVIEW_PAGE_MAX = 100;

const flagSchema = (description: string) =>
  z
    .enum(["true", "false"])
    .transform((value) => value === "true")
    .optional()
    .describe(description);

export const answerReviewQuerySchema = z.object({
  agent_id: consoleIdSchema.optional().describe("Only this agent's answers."),
  rating: z.enum(answerRatings).optional().describe("Only answers a visitor rated so: `down` (👎) or `up` (👍)."),
  low_confidence: flagSchema("`true`: only answers the bot flagged unsure; `false`: only the others."),
  no_citation: flagSchema("`true`: only answers that cite no page."),
  curated: flagSchema("`true`: only answers served from a curated answer; `false`: only the others."),
  from: daySchema.optional().describe("First UTC day, included."),
  to: daySchema.optional().describe("Last UTC day, included."),
  cursor: z.string().min(1).max(512).optional().describe("`next_cursor` of the previous page."),
  limit: z
    .string()
    .regex(/^\d{1,4}$/, `must be an integer from 1 to ${REVIEW_PAGE_MAX}`)
    .transform(Number)
    .pipe(z.number().int().min(1, `must be an integer from 1 to ${REVIEW_PAGE_MAX}`).max(REVIEW_PAGE_MAX, `must be an integer from 1 to ${REVIEW_PAGE_MAX}`))
    .optional()
    .describe(`1–${REVIEW_PAGE_MAX}, ${REVIEW_PAGE_DEFAULT} by default.`),
});

export const answerReviewSchema = z.object({
  id: z.string().describe("The bot message's id."),
  conversation_id: z.string(),
  agent_id: z.string(),
  question: z.string().describe("The visitor's message the answer replied to (empty when there is none)."),
  answer: z.string(),
  citations: z.array(citationSchema).describe("The pages the answer cites."),
  low_confidence: z.boolean().describe("The bot flagged the answer unsure."),
  curated_answer_id: z.string().nullable().describe("The curated answer it was served from, if any."),
  trace: answerTraceSchema.nullable().describe("Why the pipeline answered so, with the passages it read; null for answers stored before it was kept."),
  rating: z
    .object({ rating: z.enum(answerRatings), comment: z.string().nullable(), rated_at: isoTimestampSchema })
    .nullable()
    .describe("The visitor's 👍/👎 and comment, if they rated it."),
  created_at: isoTimestampSchema,
});

export const answerReviewListResponseSchema = z.object({
  data: z.array(answerReviewSchema),
  next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page."),
});

documentMembers(answerReviewQuerySchema);
documentMembers(answerReviewSchema);
documentMembers(answerReviewListResponseSchema);
componentSchemas.add(answerReviewSchema, {
  id: "AnswerReview",
  description: "A bot answer as the review queue shows it: its question, answer, citations, flags, the pipeline's reason and the visitor's rating.",
});
componentSchemas.add(answerTraceSchema, { id: "AnswerTrace", description: "Why the answering pipeline answered as it did, kept with the answer." });

export const listAnswerReviewsRouteSchema = {
  tags: ["console"],
  operationId: "listConsoleAnswerReviews",
  summary: "List bot answers for review",
  description:
    "The review queue: the workspace's bot answers, newest first, each with the visitor's question, the answer, its citations, " +
    "whether the bot was unsure, whether a curated answer served it, the pipeline's stored reason with the passages it read, " +
    "and the visitor's rating. Filters combine (AND). Paged by `cursor`. Any role.",
  security: consoleSecurity,
  querystring: answerReviewQuerySchema,
  response: {
    200: jsonResponse("A page of answers.", answerReviewListResponseSchema),
    ...consoleReadErrors,
    422: errorResponse("`validation_failed`: a filter, `cursor` or `limit` is invalid, or `from` is after `to`."),
  },
};
