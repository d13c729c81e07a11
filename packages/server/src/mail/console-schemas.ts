import { mailMessageSchema, mailOutboxQuerySchema, mailOutboxResponseSchema, operatorMailPreferencesResponseSchema, operatorMailPreferencesSchema } from "@frontdesk/contracts";
import { consoleAdminSecurity, consoleReadErrors, consoleSecurity, consoleWriteErrors } from "../console/console-responses.js";
import { componentSchemas } from "../openapi/component-schemas.js";
import { documentMembers } from "../openapi/document-members.js";
import { errorResponse, jsonResponse } from "../openapi/route-responses.js";

documentMembers(mailMessageSchema);
componentSchemas.add(mailMessageSchema, { id: "MailMessage", description: "One e-mail of the workspace: its recipient, subject, status and attempts (never its body)." });

const tags = ["console"];

export const mailOutboxRouteSchema = {
  tags,
  operationId: "getConsoleMailOutbox",
  summary: "The workspace's e-mail: outbox and delivery log",
  description:
    "Whether SMTP is configured (FRONTDESK_SMTP_URL), a `notice` to show (\"E-mail is not set up: 3 messages waiting\", or the failed " +
    "mails), the count of mails by status, and the latest mails with each attempt's outcome: a refusal (5xx) or a server that " +
    "hung shows here with the SMTP server's answer. Admins only.",
  security: consoleAdminSecurity,
  querystring: mailOutboxQuerySchema,
  response: {
    200: jsonResponse("The outbox.", mailOutboxResponseSchema),
    ...consoleReadErrors,
    403: errorResponse("`forbidden`: only an admin sees the workspace's e-mail."),
    422: consoleWriteErrors[422],
  },
};

export const getMailPreferencesRouteSchema = {
  tags,
  operationId: "getConsoleMailPreferences",
  summary: "The signed-in operator's e-mail alerts",
  description: "How the operator is e-mailed when away: `every` alert (the default), an hourly `digest`, or `none`.",
  security: consoleSecurity,
  response: { 200: jsonResponse("The operator's choice.", operatorMailPreferencesResponseSchema), ...consoleReadErrors },
};

export const updateMailPreferencesRouteSchema = {
  tags,
  operationId: "updateConsoleMailPreferences",
  summary: "Choose the signed-in operator's e-mail alerts",
  description:
    "`every`: an e-mail when a visitor asks for a person while no operator is online, and when a visitor's message in a conversation " +
    "the operator has stays unread for FRONTDESK_EMAIL_UNSEEN_DELAY_SECONDS; `digest`: the same gathered in one e-mail an hour; `none`.",
  security: consoleSecurity,
  body: operatorMailPreferencesSchema,
  response: { 200: jsonResponse("The operator's choice.", operatorMailPreferencesResponseSchema), ...consoleWriteErrors },
};
