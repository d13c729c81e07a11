import { z } from "zod";
import { componentSchemas } from "../../openapi/component-schemas.js";
import { jsonResponse } from "../../openapi/route-responses.js";
import { consoleReadErrors, consoleSecurity } from "../console-responses.js";
import { documentMembers } from "../../openapi/document-members.js";

export const workspaceUsageSchema = z.object({
  workspace: z.object({ id: z.string(), name: z.string() }),
  month: z.string().describe("The current UTC month, `YYYY-MM`."),
  conversation_quota: z.number().int().nullable().describe("Conversations the workspace may start per UTC month; null: no limit."),
  conversations_used: z.number().int().describe("Conversations started this month (init counts one when it starts a conversation)."),
  conversations_remaining: z.number().int().nullable().describe("What the quota leaves this month; null without a quota. At 0, init answers 429 `plan_limit_reached`."),
  resets_at: z.string().describe("The start of the next UTC month, when the count starts again."),
  history: z.array(z.object({ month: z.string(), conversations: z.number().int() })).describe("The last six months, oldest first, this one included."),
});
export const workspaceUsageResponseSchema = z.object({ data: workspaceUsageSchema });

documentMembers(workspaceUsageSchema);
componentSchemas.add(workspaceUsageSchema, { id: "WorkspaceUsage", description: "The workspace's monthly conversation quota and usage." });

export const workspaceUsageRouteSchema = {
  tags: ["console"],
  operationId: "showConsoleWorkspaceUsage",
  summary: "Show the workspace's quota and usage",
  description:
    "The monthly conversation quota (set with `frontdesk admin workspace create --conversation-quota`), the conversations this UTC month " +
    "counted against it, what remains, when it resets, and the last six months. Any role.",
  security: consoleSecurity,
  response: { 200: jsonResponse("The quota and usage.", workspaceUsageResponseSchema), ...consoleReadErrors },
};
