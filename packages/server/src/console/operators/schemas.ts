import { consoleIdSchema, isoTimestampSchema, operatorRoleSchema } from "@frontdesk/contracts";
import { z } from "zod";
import { componentSchemas } from "../../openapi/component-schemas.js";
import { errorResponse, jsonResponse } from "../../openapi/route-responses.js";
import { consoleAdminSecurity, consoleErrorResponses, consoleReadErrors, consoleSecurity, consoleWriteErrors } from "../console-responses.js";
import { documentMembers } from "../../openapi/document-members.js";

export const workspaceOperatorSchema = z.object({
  id: z.string(),
  workspace_id: z.string(),
  email: z.string(),
  name: z.string(),
  role: operatorRoleSchema,
  password_set: z.boolean().describe("False while the invitation's set-password link has not been used."),
  away: z.boolean().describe("Away (PUT /me/availability): counted as offline for routing, the widget's availability and the nobody-online alerts."),
  created_at: isoTimestampSchema,
});

const setPasswordLinkMembers = {
  set_password_url: z.string().describe("`{public url}/console/set-password#token=…`: single use, valid 24 hours; hand it to the operator."),
  set_password_expires_at: isoTimestampSchema,
};

export const inviteOperatorBodySchema = z.object({
  email: z.string().trim().max(320).pipe(z.email({ message: "must be a valid e-mail address" })),
  name: z.string().trim().min(1).max(200),
  role: operatorRoleSchema,
});
export const changeRoleBodySchema = z.object({ role: operatorRoleSchema });
export const operatorParamsSchema = z.object({ id: consoleIdSchema });

export const operatorListResponseSchema = z.object({ data: z.array(workspaceOperatorSchema) });
export const operatorResponseSchema = z.object({ data: workspaceOperatorSchema });
export const invitedOperatorResponseSchema = z.object({ data: workspaceOperatorSchema.extend(setPasswordLinkMembers) });
export const passwordLinkResponseSchema = z.object({ data: z.object({ operator_id: z.string(), ...setPasswordLinkMembers }) });
export const removedOperatorResponseSchema = z.object({ data: workspaceOperatorSchema.extend({ removed: z.literal(true) }) });
export const sessionsEndedResponseSchema = z.object({
  data: z.object({ operator_id: z.string(), sessions_ended: z.number().int().describe("How many live sessions ended.") }),
});

documentMembers(workspaceOperatorSchema);
componentSchemas.add(workspaceOperatorSchema, { id: "WorkspaceOperator", description: "An operator of the workspace, as the settings page lists them." });
componentSchemas.add(inviteOperatorBodySchema, { id: "InviteOperatorRequest" });
componentSchemas.add(changeRoleBodySchema, { id: "ChangeOperatorRoleRequest" });

const tags = ["console"];
const adminOnly = errorResponse("`forbidden`: only an admin manages operators; `csrf_origin_mismatch`: a change without `Origin` equal to FRONTDESK_PUBLIC_URL's origin.");
const notFound = errorResponse("`operator_not_found`: no operator with this id in the workspace.");
const lastAdmin = errorResponse("`last_admin`: this is the workspace's last admin; make another operator an admin first.");
const pathErrors = {
  401: consoleErrorResponses.unauthenticated,
  403: adminOnly,
  404: notFound,
  422: consoleWriteErrors[422],
  500: consoleReadErrors[500],
} as const;

export const listOperatorsRouteSchema = {
  tags,
  operationId: "listConsoleOperators",
  summary: "List the workspace's operators",
  description: "Every operator of the signed-in operator's workspace, oldest first, with their role and whether they have set a password. Any role.",
  security: consoleSecurity,
  response: { 200: jsonResponse("The workspace's operators.", operatorListResponseSchema), ...consoleReadErrors },
};

export const inviteOperatorRouteSchema = {
  tags,
  operationId: "inviteConsoleOperator",
  summary: "Invite an operator",
  description:
    "Adds an operator to the workspace with a role, and answers their one-time set-password link (valid 24 hours) to hand over: " +
    "they choose a password there, then sign in. An e-mail of an operator of this workspace is 422 naming `email`; any other e-mail is invited alike, " +
      "whether or not it already has an account elsewhere (an admin learns nothing about other workspaces): accepting then tells the invited person (`setConsolePassword`, 409 `email_taken`). Admins only.",
  security: consoleAdminSecurity,
  body: inviteOperatorBodySchema,
  response: {
    201: jsonResponse("The operator, and their set-password link.", invitedOperatorResponseSchema),
    ...consoleWriteErrors,
    403: adminOnly,
  },
};

export const passwordLinkRouteSchema = {
  tags,
  operationId: "reissueConsoleOperatorPasswordLink",
  summary: "Issue a new set-password link",
  description: "A new one-time set-password link for an operator of the workspace (the invitation's was lost or expired; earlier links stay valid until used or expired). Admins only.",
  security: consoleAdminSecurity,
  params: operatorParamsSchema,
  response: { 200: jsonResponse("The link.", passwordLinkResponseSchema), ...pathErrors },
};

export const changeRoleRouteSchema = {
  tags,
  operationId: "changeConsoleOperatorRole",
  summary: "Change an operator's role",
  description:
    "Makes an operator of the workspace an `admin` or an `agent`; it applies to their next request. Demoting the last admin is refused " +
    "(409 `last_admin`), also when two admins demote each other at the same moment. Admins only.",
  security: consoleAdminSecurity,
  params: operatorParamsSchema,
  body: changeRoleBodySchema,
  response: {
    200: jsonResponse("The operator with their new role.", operatorResponseSchema),
    ...consoleWriteErrors,
    403: adminOnly,
    404: notFound,
    409: lastAdmin,
  },
};

export const removeOperatorRouteSchema = {
  tags,
  operationId: "removeConsoleOperator",
  summary: "Remove an operator",
  description:
    "Removes an operator of the workspace (an admin may remove themselves while another admin remains): every session of theirs ends at " +
    "once, their conversations lose their assignee, their messages keep their name. The last admin cannot be removed (409 `last_admin`). Admins only.",
  security: consoleAdminSecurity,
  params: operatorParamsSchema,
  response: { 200: jsonResponse("The removed operator.", removedOperatorResponseSchema), ...pathErrors, 409: lastAdmin },
};

export const signOutEverywhereRouteSchema = {
  tags,
  operationId: "signOutConsoleOperatorEverywhere",
  summary: "Sign an operator out everywhere",
  description:
    "Ends every console session of the operator, in every browser and process. Any operator may do it for themselves (their own " +
    "id: the session of this request ends too and its cookie is cleared); only an admin may do it for another operator of the workspace.",
  security: consoleSecurity,
  params: operatorParamsSchema,
  response: {
    200: jsonResponse("How many sessions ended.", sessionsEndedResponseSchema),
    ...pathErrors,
    403: errorResponse("`forbidden`: an agent naming another operator; `csrf_origin_mismatch`: without `Origin` equal to FRONTDESK_PUBLIC_URL's origin."),
  },
};

export const availabilityBodySchema = z.object({
  away: z.boolean().describe("`true`: away while signed in; `false`: available again."),
});
export const availabilityResponseSchema = z.object({ data: availabilityBodySchema });
documentMembers(availabilityBodySchema);

const availabilityDescription =
  "Whether the signed-in operator is away. An away operator stays signed in and sees everything live, but counts as offline: " +
  "round-robin routing passes them by, the widget shows nobody online when everyone connected is away, and the alerts for a " +
  "person asked for while nobody is online go out.";

export const getAvailabilityRouteSchema = {
  tags: ["console"],
  operationId: "getConsoleAvailability",
  summary: "Whether the signed-in operator is away",
  description: availabilityDescription,
  security: consoleSecurity,
  response: { 200: jsonResponse("The operator's availability.", availabilityResponseSchema), ...consoleReadErrors },
};

export const setAvailabilityRouteSchema = {
  tags: ["console"],
  operationId: "setConsoleAvailability",
  summary: "Go away, or be available again",
  description: availabilityDescription,
  security: consoleSecurity,
  body: availabilityBodySchema,
  response: { 200: jsonResponse("The operator's availability now.", availabilityResponseSchema), ...consoleWriteErrors },
};
