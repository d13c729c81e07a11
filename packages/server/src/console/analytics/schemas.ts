import { consoleIdSchema } from "@frontdesk/contracts";
import { z } from "zod";
import { componentSchemas } from "../../openapi/component-schemas.js";
import { errorResponse, jsonResponse } from "../../openapi/route-responses.js";
import { consoleReadErrors, consoleSecurity } from "../console-responses.js";
import { documentMembers } from "../../openapi/document-members.js";

export const ANALYTICS_MAX_DAYS = 366;
export const ANALYTICS_DEFAULT_DAYS = 30;
export const TOP_QUESTIONS = 10;

/** A calendar day `YYYY-MM-DD` of the years 1970 to 9998 (a day after it must still be a timestamp). */
export const daySchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date, YYYY-MM-DD")
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), "must be a date, YYYY-MM-DD")
  .refine((value) => value >= "1970-01-01" && value < "9999-01-01", "must be a day of the years 1970 to 9998");

export const analyticsQuerySchema = z.object({
  agent_id: consoleIdSchema.describe("The agent (of the operator's workspace)."),
  from: daySchema.optional().describe(`First UTC day, included; \`to\` minus ${ANALYTICS_DEFAULT_DAYS - 1} days by default.`),
  to: daySchema.optional().describe(`Last UTC day, included; today by default. At most ${ANALYTICS_MAX_DAYS} days from \`from\`.`),
});

const shareSchema = z.number().nullable().describe("count ÷ conversations, from 0 to 1; null when there are no conversations.");
const outcomeSchema = z.object({ count: z.number().int(), share: shareSchema });

export const analyticsSchema = z.object({
  agent_id: z.string(),
  from: z.string(),
  to: z.string(),
  conversations: z.object({
    total: z.number().int().describe("Conversations created in the period in which the visitor wrote or asked for a person."),
    per_day: z.array(z.object({ date: z.string(), conversations: z.number().int() })).describe("Every UTC day of the period, in order, zero included."),
  }),
  outcomes: z
    .object({
      answered: outcomeSchema,
      answered_low_confidence: outcomeSchema,
      handed_to_human: outcomeSchema,
      unanswered: outcomeSchema,
    })
    .describe(
      "Each conversation in exactly one: `handed_to_human` (a person was asked for, or an operator took it over); else " +
        "`answered_low_confidence` (a bot answer was flagged low-confidence); else `answered` (the bot answered); else `unanswered`.",
    ),
  satisfaction: z.object({
    good: z.number().int(),
    bad: z.number().int(),
    share_good: z.number().nullable().describe("good ÷ (good + bad); null without ratings."),
  }),
  answer_ratings: z
    .object({ up: z.number().int(), down: z.number().int() })
    .describe("The bot's answers in these conversations that visitors rated 👍 (`up`) and 👎 (`down`)."),
  resolutions: z
    .object({ confirmed: outcomeSchema, ended_without_person: outcomeSchema })
    .describe(
      "Conversations no person took part in, split by whether the visitor confirmed they were helped: `confirmed` (a 👍 on an answer " +
        "or a good satisfaction rating) and `ended_without_person` (the bot answered; nothing confirmed). Shares are of all conversations.",
    ),
  first_operator_reply: z.object({
    median_seconds: z.number().nullable().describe("Median time from the handover to the first operator message; null when none was answered."),
    conversations: z.number().int().describe("Handed-over conversations an operator replied to (the median's sample)."),
  }),
  top_questions: z
    .array(z.object({ question: z.string(), count: z.number().int() }))
    .describe(`The ${TOP_QUESTIONS} most frequent visitor messages, by normalised text (lower case, single spaces, no punctuation at the ends); most frequent first.`),
  funnel: z
    .object({
      launcher_opened: z.number().int().describe("Visitors who opened the widget (`launcher.open` events)."),
      conversations: z.number().int().describe("Visitors with a conversation counted above."),
      leads: z.number().int().describe("Leads captured (first submission in the period)."),
    })
    .describe("The widget's funnel in the period."),
  labels: z
    .array(z.object({ id: z.string(), name: z.string(), colour: z.string(), conversations: z.number().int() }))
    .describe("Each label of the workspace with how many of the conversations counted above carry it now; most first, then by name."),
});
export const analyticsResponseSchema = z.object({ data: analyticsSchema });

documentMembers(analyticsQuerySchema);
documentMembers(analyticsSchema);
componentSchemas.add(analyticsSchema, {
  id: "AgentAnalytics",
  description: "One agent's figures over a period of UTC days: conversations counted by their creation time.",
});

export const analyticsRouteSchema = {
  tags: ["console"],
  operationId: "showConsoleAnalytics",
  summary: "Show an agent's analytics for a period",
  description:
    "For one agent of the workspace and a period of UTC days (the last 30 by default): conversations per day, the share answered, " +
    "answered with low confidence, handed to a human and unanswered, satisfaction, the answers rated 👍 and 👎, the conversations " +
    "resolved with the visitor's confirmation apart from those merely ended without a person, the median time to the first operator reply, " +
    "the top questions, the widget's funnel (launcher opened → conversation → lead) and the conversations per label. Any role.",
  security: consoleSecurity,
  querystring: analyticsQuerySchema,
  response: {
    200: jsonResponse("The agent's figures.", analyticsResponseSchema),
    ...consoleReadErrors,
    404: errorResponse("`agent_not_found`: no agent with this id in the operator's workspace."),
    422: errorResponse(`\`validation_failed\`: \`agent_id\`, \`from\` or \`to\` is invalid, \`from\` is after \`to\`, or the period is over ${ANALYTICS_MAX_DAYS} days.`),
  },
};
