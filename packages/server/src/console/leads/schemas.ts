import { consoleIdSchema, isoTimestampSchema } from "@frontdesk/contracts";
import { z } from "zod";
import { componentSchemas } from "../../openapi/component-schemas.js";
import { errorResponse, jsonResponse } from "../../openapi/route-responses.js";
import { consoleReadErrors, consoleSecurity } from "../console-responses.js";
import { documentMembers } from "../../openapi/document-members.js";

export const LEAD_PAGE_DEFAULT = 50;
export const LEAD_PAGE_MAX = 100;

const searchSchema = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .optional()
  .describe("Leads whose e-mail or name contains this text (any case).");
const agentFilterSchema = consoleIdSchema.optional().describe("Only this agent's leads.");

export const leadListQuerySchema = z.object({
  q: searchSchema,
  agent_id: agentFilterSchema,
  cursor: z.string().min(1).max(512).optional().describe("`next_cursor` of the previous page."),
  limit: z
    .string()
    .regex(/^\d{1,4}$/, `must be an integer from 1 to ${LEAD_PAGE_MAX}`)
    .transform(Number)
    .pipe(z.number().int().min(1, `must be an integer from 1 to ${LEAD_PAGE_MAX}`).max(LEAD_PAGE_MAX, `must be an integer from 1 to ${LEAD_PAGE_MAX}`))
    .optional()
    .describe(`1–${LEAD_PAGE_MAX}, ${LEAD_PAGE_DEFAULT} by default.`),
});

export const leadExportQuerySchema = z.object({ q: searchSchema, agent_id: agentFilterSchema });

export const consoleLeadSchema = z.object({
  id: z.string(),
  agent_id: z.string(),
  agent_name: z.string(),
  conversation_id: z.string().nullable().describe("The conversation of the latest submission (null once that conversation is gone)."),
  visitor_id: z.string().nullable(),
  email: z.string(),
  name: z.string().nullable(),
  phone: z.string().nullable(),
  fields: z.record(z.string(), z.unknown()),
  created_at: isoTimestampSchema,
  updated_at: isoTimestampSchema.describe("The latest submission with this e-mail (a repeat updates the lead)."),
});

export const leadListResponseSchema = z.object({
  data: z.array(consoleLeadSchema),
  next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page."),
});

documentMembers(leadListQuerySchema);
documentMembers(consoleLeadSchema);
documentMembers(leadListResponseSchema);
componentSchemas.add(consoleLeadSchema, {
  id: "ConsoleLead",
  description: "A lead the widget captured: one per agent and e-mail (a repeat submission updates it).",
});

const tags = ["console"];
const invalidQuery = errorResponse("`validation_failed`: `q`, `agent_id`, `cursor` or `limit` is invalid (`fields` names it).");

export const listLeadsRouteSchema = {
  tags,
  operationId: "listConsoleLeads",
  summary: "List the workspace's leads",
  description:
    "The leads of the signed-in operator's workspace, newest first, `limit` per page (`next_cursor` continues); `q` keeps those " +
    "whose e-mail or name contains the text, `agent_id` those of one agent (an agent of another workspace matches nothing). Any role.",
  security: consoleSecurity,
  querystring: leadListQuerySchema,
  response: {
    200: jsonResponse("A page of leads.", leadListResponseSchema),
    ...consoleReadErrors,
    422: invalidQuery,
  },
};

export const CSV_COLUMNS = ["email", "name", "phone", "agent", "created_at", "updated_at", "conversation_id", "fields"] as const;

export const exportLeadsRouteSchema = {
  tags,
  operationId: "exportConsoleLeads",
  summary: "Export the workspace's leads as CSV",
  description:
    "Every lead the same `q` and `agent_id` would list, newest first, as RFC 4180 CSV (UTF-8, CRLF line ends, a header row: " +
    `${CSV_COLUMNS.map((column) => `\`${column}\``).join(", ")}; \`fields\` as JSON), sent as an attachment ` +
    "`leads-YYYY-MM-DD.csv`. A cell that a spreadsheet would read as a formula (beginning with `=`, `+`, `-`, `@`, a tab or a " +
    "carriage return) is prefixed with `'`. Any role.",
  security: consoleSecurity,
  querystring: leadExportQuerySchema,
  response: {
    200: { description: "The CSV file (`Content-Type: text/csv; charset=utf-8`).", content: { "text/csv": { schema: z.string() } } },
    ...consoleReadErrors,
    422: errorResponse("`validation_failed`: `q` or `agent_id` is invalid (`fields` names it)."),
  },
};
