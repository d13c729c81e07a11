import { z } from "zod";
import { isoTimestampSchema } from "./common.js";
import { createSourceBodySchema, sourceErrorSchema, sourceKinds, sourceScheduleSchema, sourceSchedules, sourceStatuses } from "./sources.js";

/**
 * The console's Knowledge screen (/api/v1/console/knowledge/*): an agent's sources with their
 * progress, added, re-synced and deleted by an admin without an API token, and "try a question".
 */

const idSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be an id");

export const consoleSourceListQuerySchema = z.object({
  agent_id: idSchema.optional().describe("Only this agent's sources (all the workspace's when omitted)."),
});

export const sourceProgressSchema = z.object({
  pages_found: z.number().int().describe("Pages the source yields: a sitemap's listed pages on its host; 1 for a URL or a text once it is read."),
  pages_indexed: z.number().int().describe("Pages indexed without an error at their last attempt."),
  pages_failed: z.number().int().describe("Pages whose last attempt failed (a page indexed earlier keeps answering)."),
  pages_pending: z.number().int().describe("Pages still waiting to be (re)indexed."),
});

export const consoleSourceSchema = z.object({
  id: z.string(),
  agent_id: z.string(),
  kind: z.enum(sourceKinds),
  status: z.enum(sourceStatuses).describe("`pending` until the first sync ends, then `indexed`; `failed` when nothing of it could be indexed."),
  syncing: z.boolean().describe("A sync is under way (the first one, or a re-sync of an indexed source)."),
  url: z.string().nullable().describe("The page or sitemap; for a text, the URL it is cited by, if given."),
  title: z.string().nullable().describe("A text's title."),
  progress: sourceProgressSchema,
  error: sourceErrorSchema.nullable().describe("Why the last sync failed, in words (`code` is stable, `message` says what to do)."),
  config: z.record(z.string(), z.unknown()),
  last_synced_at: isoTimestampSchema.nullable(),
  schedule: z.enum(sourceSchedules).describe("How often the source is re-synced on its own (`off` for texts and WordPress sites)."),
  next_sync_at: isoTimestampSchema.nullable().describe("When the next scheduled re-sync is due; null while `schedule` is `off`."),
  created_at: isoTimestampSchema,
});
export type ConsoleSource = z.infer<typeof consoleSourceSchema>;

export const failedPageSchema = z.object({
  url: z.string(),
  error: sourceErrorSchema,
  indexed_before: z.boolean().describe("The page was indexed by an earlier sync and still answers."),
});

export const consoleSourceDetailSchema = consoleSourceSchema.extend({
  failed_pages: z.array(failedPageSchema).describe("Up to 50 pages whose last attempt failed, with why."),
});

export const consoleSourceListResponseSchema = z.object({ data: z.array(consoleSourceSchema) });
export type ConsoleSourceDetail = z.infer<typeof consoleSourceDetailSchema>;
export const consoleSourceResponseSchema = z.object({ data: consoleSourceDetailSchema });

/** POST /api/v1/console/knowledge/sources: the Sources API's body (`agent_id`, `kind`, and the kind's members). */
export const createConsoleSourceBodySchema = createSourceBodySchema;

/** PATCH /api/v1/console/knowledge/sources/{id}: what an admin may change on a source. */
export const updateConsoleSourceBodySchema = z.object({ schedule: sourceScheduleSchema });
export type UpdateConsoleSourceBody = z.infer<typeof updateConsoleSourceBodySchema>;

export const TRY_QUESTION_MAX_LENGTH = 2000;

export const tryQuestionBodySchema = z.object({
  agent_id: idSchema,
  question: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(TRY_QUESTION_MAX_LENGTH, `must be at most ${TRY_QUESTION_MAX_LENGTH} characters`),
});
export type TryQuestionBody = z.infer<typeof tryQuestionBodySchema>;

export const retrievedPassageSchema = z.object({
  number: z.number().int().describe("1-based: the answer's citations refer to passages by their document."),
  document_id: z.number().int(),
  url: z.string(),
  title: z.string(),
  heading: z.string().nullable(),
  content: z.string(),
  score: z.number().describe("The fused (reciprocal rank fusion) score: ranks, not a probability."),
});

export const tryQuestionResponseSchema = z.object({
  data: z.object({
    question: z.string(),
    passages: z.array(retrievedPassageSchema),
    confidence: z.object({
      low_confidence: z.boolean().describe("Retrieval found nothing relevant enough to ground an answer: the bot says so and offers a person."),
      score: z.number().describe("0–1: rarity-weighted coverage blended with the best passage's normalised BM25."),
      signals: z.object({
        top_similarity: z.number().describe("Cosine similarity of the nearest chunk."),
        top_coverage: z.number().describe("Share of the question's weight (Σ IDF) found in one of the best passages."),
        unknown_share: z.number().describe("Share of the question's weight in words the knowledge never uses."),
        rare_coverage: z.number().describe("Share of the question's general-English rarity found in one of the best passages."),
        unknown_rare_share: z.number().describe("Share of that rarity in words the knowledge never uses."),
        best_score: z.number().describe("The best passage's BM25 over the most a passage could score (0–1)."),
      }),
      thresholds: z.object({
        min_similarity: z.number(),
        min_coverage: z.number(),
        max_unknown_share: z.number(),
        coverage_weight: z.number(),
      }),
    }),
    answer: z.object({
      content: z.string(),
      citations: z.array(z.object({ id: z.number().int(), url: z.string(), title: z.string().optional() })),
      low_confidence: z.boolean().describe("Whether the answer would be stored and shown as low-confidence."),
      generator: z.string().describe("Which generator wrote it (`extractive`, `openai:…`, `anthropic:…`)."),
      error: z.object({ code: z.string(), message: z.string() }).nullable(),
    }),
  }),
});
export type TryQuestionResponse = z.infer<typeof tryQuestionResponseSchema>;
