import { consoleIdSchema, isoTimestampSchema } from "@frontdesk/contracts";
import { z } from "zod";
import { componentSchemas } from "../../openapi/component-schemas.js";
import { errorResponse, jsonResponse, noContentResponse } from "../../openapi/route-responses.js";
import { analyticsQuerySchema } from "../analytics/schemas.js";
import { consoleAdminSecurity, consoleErrorResponses, consoleReadErrors, consoleSecurity, consoleWriteErrors } from "../console-responses.js";
import { documentMembers } from "../../openapi/document-members.js";

export const CURATED_LIST_MAX = 500;
export const KNOWLEDGE_GAPS_MAX = 50;

const questionSchema = z.string().trim().min(1, "must not be empty").max(1000, "must be at most 1,000 characters").describe("The visitor's question, as a visitor would ask it.");
const answerSchema = z.string().trim().min(1, "must not be empty").max(8000, "must be at most 8,000 characters").describe("The right answer, served as written.");
const sourceUrlSchema = z
  .string()
  .trim()
  .max(2000)
  .url()
  .refine((value) => /^https?:\/\//i.test(value), "must be an http or https URL")
  .describe("The page the answer comes from, cited with it.");

export const curatedAnswerSchema = z.object({
  id: z.string(),
  agent_id: z.string(),
  question: z
    .string()
    .describe("The question it answers. Empty when it was a visitor's own words and that visitor was erased: it matches nothing until an operator writes one."),
  answer: z.string(),
  source_url: z.string().nullable(),
  created_by: z.string().nullable().describe("The operator who wrote it (null once removed)."),
  created_at: isoTimestampSchema,
  updated_at: isoTimestampSchema,
});

export const createCuratedAnswerBodySchema = z
  .object({
    agent_id: consoleIdSchema.optional().describe("The agent; may be left out with `message_id` (the message's agent)."),
    question: questionSchema.optional().describe("The question; by default, with `message_id`, the visitor's message just before that bot reply."),
    answer: answerSchema,
    source_url: sourceUrlSchema.optional(),
    message_id: consoleIdSchema.optional().describe("\"Fix this answer\": the bot reply being corrected."),
  })
  .superRefine((body, context) => {
    if (body.agent_id === undefined && body.message_id === undefined) {
      context.addIssue({ code: "custom", path: ["agent_id"], message: "required unless message_id is given" });
    }
    if (body.question === undefined && body.message_id === undefined) {
      context.addIssue({ code: "custom", path: ["question"], message: "required unless message_id is given" });
    }
  });

export const updateCuratedAnswerBodySchema = z
  .object({ question: questionSchema.optional(), answer: answerSchema.optional(), source_url: sourceUrlSchema.nullable().optional() })
  .refine((body) => body.question !== undefined || body.answer !== undefined || body.source_url !== undefined, {
    message: "nothing to change",
    path: ["answer"],
  });

export const curatedParamsSchema = z.object({ id: consoleIdSchema });
export const curatedListQuerySchema = z.object({ agent_id: consoleIdSchema.describe("The agent (of the operator's workspace).") });
export const curatedAnswerResponseSchema = z.object({ data: curatedAnswerSchema });
export const curatedAnswerListResponseSchema = z.object({ data: z.array(curatedAnswerSchema) });

export const knowledgeGapsQuerySchema = analyticsQuerySchema;
export const knowledgeGapSchema = z.object({
  question: z.string().describe("An example: the group's most recent question."),
  count: z.number().int().describe("Low-confidence answers in the group."),
  last_asked_at: isoTimestampSchema,
  questions: z.array(z.string()).describe("Up to 5 distinct questions of the group (normalised text), most recent first."),
  curated_answer_id: z.string().nullable().describe("The curated answer the group's question now gets (\"answered\"), else null."),
});
export const knowledgeGapsResponseSchema = z.object({
  data: z.object({ agent_id: z.string(), from: z.string(), to: z.string(), gaps: z.array(knowledgeGapSchema) }),
});

documentMembers(curatedAnswerSchema);
documentMembers(knowledgeGapSchema);
componentSchemas.add(curatedAnswerSchema, {
  id: "CuratedAnswer",
  description: "An operator's answer to a question: a later question close enough to it gets this answer directly.",
});
componentSchemas.add(knowledgeGapSchema, { id: "KnowledgeGap", description: "Similar questions the agent answered with low confidence." });

const tags = ["console"];
const notFound = errorResponse("`not_found`: no curated answer with this id in the operator's workspace.");
const adminWriteErrors = { ...consoleWriteErrors, 403: consoleErrorResponses.csrf };

export const createCuratedAnswerRouteSchema = {
  tags,
  operationId: "createConsoleCuratedAnswer",
  summary: "Curate an answer (\"Fix this answer\")",
  description:
    "Stores the right answer to a question of an agent. With `message_id` (a bot reply of the workspace), the agent and, unless " +
    "given, the question are those of that reply (the visitor's message before it). From then on a visitor question close enough " +
    "(see docs/benchmarks.md, \"Curated answers\") gets this answer directly, stored with `curated_answer_id`. Admins only.",
  security: consoleAdminSecurity,
  body: createCuratedAnswerBodySchema,
  response: {
    201: jsonResponse("The curated answer.", curatedAnswerResponseSchema),
    ...adminWriteErrors,
    404: errorResponse("`agent_not_found`: no such agent in the workspace; `not_found`: no bot message `message_id` in the workspace."),
  },
};

export const listCuratedAnswersRouteSchema = {
  tags,
  operationId: "listConsoleCuratedAnswers",
  summary: "List an agent's curated answers",
  description: `The agent's curated answers, newest first (at most ${CURATED_LIST_MAX}). Any role.`,
  security: consoleSecurity,
  querystring: curatedListQuerySchema,
  response: {
    200: jsonResponse("The curated answers.", curatedAnswerListResponseSchema),
    ...consoleReadErrors,
    404: errorResponse("`agent_not_found`: no agent with this id in the operator's workspace."),
    422: errorResponse("`validation_failed`: `agent_id` is missing or invalid."),
  },
};

export const updateCuratedAnswerRouteSchema = {
  tags,
  operationId: "updateConsoleCuratedAnswer",
  summary: "Change a curated answer",
  description: "Changes the question, the answer and/or the source URL (null removes it). Admins only.",
  security: consoleAdminSecurity,
  params: curatedParamsSchema,
  body: updateCuratedAnswerBodySchema,
  response: { 200: jsonResponse("The curated answer.", curatedAnswerResponseSchema), ...adminWriteErrors, 404: notFound },
};

export const deleteCuratedAnswerRouteSchema = {
  tags,
  operationId: "deleteConsoleCuratedAnswer",
  summary: "Delete a curated answer",
  description: "Deletes it: questions are answered from the knowledge again. Replies already served keep its id as their marker. Admins only.",
  security: consoleAdminSecurity,
  params: curatedParamsSchema,
  response: {
    204: noContentResponse("Deleted."),
    401: consoleErrorResponses.unauthenticated,
    403: consoleErrorResponses.csrf,
    404: notFound,
    422: consoleWriteErrors[422],
    500: consoleReadErrors[500],
  },
};

export const knowledgeGapsRouteSchema = {
  tags,
  operationId: "listConsoleKnowledgeGaps",
  summary: "List an agent's knowledge gaps",
  description:
    "The visitor questions the agent answered with low confidence in a period of UTC days (the last 30 by default), grouped by " +
    "similarity (the same lexical similarity as curated answers, at the same threshold, against each group's first question), most " +
    `frequent first (then most recent), at most ${KNOWLEDGE_GAPS_MAX} groups. Each is a candidate for a curated answer or a new source. Any role.`,
  security: consoleSecurity,
  querystring: knowledgeGapsQuerySchema,
  response: {
    200: jsonResponse("The knowledge gaps.", knowledgeGapsResponseSchema),
    ...consoleReadErrors,
    404: errorResponse("`agent_not_found`: no agent with this id in the operator's workspace."),
    422: errorResponse("`validation_failed`: `agent_id`, `from` or `to` is invalid, `from` is after `to`, or the period is over 366 days."),
  },
};
