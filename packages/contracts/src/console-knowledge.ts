import { z } from "zod";
import { isoTimestampSchema } from "./common.js";
import { urlPatternMembers } from "./source-documents.js";
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
export const updateConsoleSourceBodySchema = z
  .object({ schedule: sourceScheduleSchema.optional(), ...urlPatternMembers })
  .refine((body) => body.schedule !== undefined || body.include_patterns !== undefined || body.exclude_patterns !== undefined, {
    message: "must change schedule, include_patterns or exclude_patterns",
  });
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

/** The stages a visitor's turn goes through, in order (the server's `answerTurn`). */
export const turnStages = ["curated_answer", "person_request", "small_talk", "follow_up", "retrieval", "confidence", "composition"] as const;

export const triedPassageSchema = z.object({
  number: z.number().int().describe("1-based, best first: the order the bot read the passages in."),
  document_id: z.number().int(),
  url: z.string(),
  title: z.string(),
  heading: z.string().nullable(),
  content: z.string(),
  matched_words: z.array(z.string()).describe("The question's words this passage holds, as the question writes them."),
  cited: z.boolean().describe("The answer cites this passage's page."),
});

export const tryQuestionResponseSchema = z.object({
  data: z.object({
    question: z.string(),
    decided_by: z.enum(turnStages).describe("The stage that decided the answer: an operator's curated answer, a request for a person, small talk, or the composition from the knowledge."),
    steps: z
      .array(z.object({ stage: z.enum(turnStages), summary: z.string().describe("What the stage found and why, in words.") }))
      .describe("Each stage the question went through, in order, the last one deciding."),
    sure: z.boolean().nullable().describe("Whether the bot would be sure of its answer from the knowledge; null when it answered without searching it."),
    passages: z.array(triedPassageSchema).describe("What the bot read of the knowledge (none when it did not search it)."),
    unknown_words: z.array(z.string()).describe("Words of the question that no page of the knowledge uses."),
    answer: z.object({
      content: z.string(),
      citations: z.array(z.object({ id: z.number().int(), url: z.string(), title: z.string().optional() })),
      low_confidence: z.boolean().describe("Whether the answer would be stored and shown as low-confidence."),
      generator: z.string().describe("Which generator wrote it (`curated`, `small-talk`, `extractive`, `openai:…`, `anthropic:…`), or `handoff` when the bot hands over instead."),
      hands_over: z.boolean().describe("The bot would hand the conversation to a person instead of answering (and say nothing more)."),
      error: z.object({ code: z.string(), message: z.string() }).nullable(),
    }),
  }),
});
export type TryQuestionResponse = z.infer<typeof tryQuestionResponseSchema>;
