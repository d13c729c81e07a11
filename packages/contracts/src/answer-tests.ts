import { z } from "zod";
import { isoTimestampSchema } from "./common.js";
import { consoleIdSchema } from "./console-inbox.js";
import { citationSchema } from "./widget.js";

/**
 * Answer tests (/api/v1/console/answer-tests): an agent's test questions, each with what a right
 * answer must do, run through the visitor's own answering path; a run records pass or fail with a
 * reason per test, and a test that passed in the previous run and fails now alerts the admins.
 */

/** What a right answer must do: cite a page (`url`), contain a phrase (`text`), or say it is unsure (`unsure`). */
export const answerTestExpectKinds = ["url", "text", "unsure"] as const;
export type AnswerTestExpectKind = (typeof answerTestExpectKinds)[number];
/** Where a test came from. */
export const answerTestOrigins = ["console", "curated", "message", "csv", "cli"] as const;
export const answerTestRunStatuses = ["queued", "running", "done", "failed"] as const;
/** What started a run: on demand (console or API, CLI), or a change that may move the answers. */
export const answerTestRunTriggers = ["manual", "cli", "knowledge", "curated", "answering"] as const;

/** At most this many tests per agent: each run answers every one of them. */
export const ANSWER_TESTS_PER_AGENT_MAX = 200;
/** The runs `GET …/runs` returns at most, newest first. */
export const ANSWER_TEST_RUNS_MAX = 100;

export const answerTestQuestionSchema = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(1000, "must be at most 1,000 characters")
  .describe("The question, as a visitor would ask it.");

/** A page a right answer cites: an absolute http(s) URL, or a path of the site ("/returns") matched against the cited page's path. */
export const answerTestUrlSchema = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(2000, "must be at most 2,000 characters")
  .refine((value) => {
    if (value.startsWith("/")) return !value.startsWith("//") && !/\s/.test(value);
    try {
      const url = new URL(value);
      return url.protocol === "http:" || url.protocol === "https:";
    } catch {
      return false;
    }
  }, "must be an absolute http(s) URL or a path starting with /")
  .describe("The page a right answer cites: an absolute URL, or a path (\"/returns\") that matches a cited page of any host.");

export const answerTestTextSchema = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(500, "must be at most 500 characters")
  .describe("A phrase a right answer contains (case and spacing ignored).");

export const answerTestSchema = z.object({
  id: z.string(),
  agent_id: z.string(),
  question: z.string(),
  expect_kind: z.enum(answerTestExpectKinds).describe("`url`: cites `expect_value`; `text`: contains it; `unsure`: says it does not know (low confidence) or hands over."),
  expect_value: z.string().nullable().describe("The page or phrase; null for `unsure`."),
  origin: z.enum(answerTestOrigins).describe("Where it was created: the console's form, a curated answer, a bot message, a CSV import or the CLI."),
  last_result: z
    .object({ run_id: z.string(), passed: z.boolean(), reason: z.string(), at: isoTimestampSchema })
    .nullable()
    .describe("Its result in the agent's latest finished run that included it; null before."),
  created_at: isoTimestampSchema,
});
export type AnswerTest = z.infer<typeof answerTestSchema>;

export const answerTestListQuerySchema = z.object({ agent_id: consoleIdSchema.describe("The agent (of the operator's workspace).") });
export const answerTestListResponseSchema = z.object({ data: z.array(answerTestSchema) });
export const answerTestResponseSchema = z.object({ data: answerTestSchema });

/**
 * POST /answer-tests: one expectation (`expect_url`, `expect_text` or `expect_unsure: true`) with
 * the question; or from a curated answer (`curated_answer_id`: its question, and its source URL, else
 * the first sentence of its answer, unless an expectation is given); or from a bot message
 * (`message_id`: the visitor's question before it, with the expectation given).
 */
export const createAnswerTestBodySchema = z
  .object({
    agent_id: consoleIdSchema.optional().describe("The agent; may be left out with `curated_answer_id` or `message_id` (theirs)."),
    question: answerTestQuestionSchema.optional().describe("The question; by default that of the curated answer, or the visitor's message before `message_id`."),
    expect_url: answerTestUrlSchema.optional(),
    expect_text: answerTestTextSchema.optional(),
    expect_unsure: z.literal(true).optional().describe("A right answer says it does not know."),
    curated_answer_id: consoleIdSchema.optional().describe("Create the test from this curated answer."),
    message_id: consoleIdSchema.optional().describe("Create the test from this bot reply (e.g. one rated down): its question is the visitor's message before it."),
  })
  .superRefine((body, context) => {
    const expectations = [body.expect_url, body.expect_text, body.expect_unsure].filter((value) => value !== undefined).length;
    if (expectations > 1) context.addIssue({ code: "custom", path: ["expect_url"], message: "give only one of expect_url, expect_text and expect_unsure" });
    if (expectations === 0 && body.curated_answer_id === undefined) {
      context.addIssue({ code: "custom", path: ["expect_url"], message: "give one of expect_url, expect_text and expect_unsure" });
    }
    if (body.curated_answer_id !== undefined && body.message_id !== undefined) {
      context.addIssue({ code: "custom", path: ["message_id"], message: "give either curated_answer_id or message_id" });
    }
    const from = body.curated_answer_id ?? body.message_id;
    if (from === undefined && body.agent_id === undefined) context.addIssue({ code: "custom", path: ["agent_id"], message: "required unless curated_answer_id or message_id is given" });
    if (from === undefined && body.question === undefined) context.addIssue({ code: "custom", path: ["question"], message: "required unless curated_answer_id or message_id is given" });
  });
export type CreateAnswerTestBody = z.infer<typeof createAnswerTestBodySchema>;

export const answerTestParamsSchema = z.object({ id: consoleIdSchema });

/** The CSV's header, in this order. */
export const ANSWER_TEST_CSV_HEADER = ["question", "expect_url", "expect_text", "expect_unsure"] as const;

export const importAnswerTestsBodySchema = z.object({
  agent_id: consoleIdSchema,
  csv: z
    .string()
    .min(1, "must not be empty")
    .max(500_000, "must be at most 500,000 characters")
    .describe("The CSV text (RFC 4180): the header `question,expect_url,expect_text,expect_unsure`, then one test per row, with exactly one expectation (`expect_unsure`: true/yes/1)."),
});
export type ImportAnswerTestsBody = z.infer<typeof importAnswerTestsBodySchema>;

export const answerTestRowErrorSchema = z.object({
  row: z.number().int().describe("The row's number in the file, the header being row 1."),
  message: z.string(),
});
export const importAnswerTestsResponseSchema = z.object({
  data: z.object({
    created: z.array(answerTestSchema),
    errors: z.array(answerTestRowErrorSchema).describe("Each bad row, with why; its test was not created."),
  }),
});

export const answerTestRunSchema = z.object({
  id: z.string(),
  agent_id: z.string(),
  status: z.enum(answerTestRunStatuses).describe("`queued` (waiting for more changes to settle, or for a worker), `running`, `done`, or `failed` (see `error`)."),
  trigger: z.enum(answerTestRunTriggers),
  total: z.number().int(),
  passed: z.number().int(),
  failed: z.number().int(),
  regressed: z.number().int().describe("Tests that passed in the previous finished run and fail in this one."),
  pass_rate: z.number().nullable().describe("passed / total, 0–1; null until done, or with no test."),
  error: z.string().nullable(),
  queued_at: isoTimestampSchema,
  started_at: isoTimestampSchema.nullable(),
  finished_at: isoTimestampSchema.nullable(),
});
export type AnswerTestRun = z.infer<typeof answerTestRunSchema>;

export const answerTestResultSchema = z.object({
  test_id: z.string(),
  question: z.string(),
  expect_kind: z.enum(answerTestExpectKinds),
  expect_value: z.string().nullable(),
  passed: z.boolean(),
  reason: z.string().describe("Why, in words: \"cited /returns\", \"did not contain 'within 30 days'\", \"answered confidently; expected unsure\"."),
  regressed: z.boolean().describe("Passed in the previous finished run, fails now."),
  answer: z.string().describe("The reply the agent gave."),
  citations: z.array(citationSchema),
  low_confidence: z.boolean(),
});
export type AnswerTestResult = z.infer<typeof answerTestResultSchema>;

export const answerTestRunDetailSchema = answerTestRunSchema.extend({ results: z.array(answerTestResultSchema) });

export const startAnswerTestRunBodySchema = z.object({ agent_id: consoleIdSchema });
export const answerTestRunListQuerySchema = z.object({ agent_id: consoleIdSchema.describe("The agent (of the operator's workspace).") });
export const answerTestRunListResponseSchema = z.object({ data: z.array(answerTestRunSchema) });
export const answerTestRunResponseSchema = z.object({ data: answerTestRunSchema });
export const answerTestRunDetailResponseSchema = z.object({ data: answerTestRunDetailSchema });
