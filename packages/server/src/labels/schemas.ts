import {
  LABELS_PER_WORKSPACE_MAX,
  conversationLabelSchema,
  createLabelBodySchema,
  labelListResponseSchema,
  labelParamsSchema,
  labelResponseSchema,
  labelSchema,
  updateLabelBodySchema,
} from "@frontdesk/contracts";
import { consoleAdminSecurity, consoleErrorResponses, consoleReadErrors, consoleSecurity, consoleWriteErrors } from "../console/console-responses.js";
import { componentSchemas } from "../openapi/component-schemas.js";
import { documentMembers } from "../openapi/document-members.js";
import { errorResponse, jsonResponse, noContentResponse } from "../openapi/route-responses.js";

documentMembers(labelSchema);
componentSchemas.add(labelSchema, { id: "Label", description: "A label of the workspace: its name, colour and how many conversations carry it." });
componentSchemas.add(conversationLabelSchema, { id: "ConversationLabel", description: "A label as a conversation carries it: id, name and colour." });

const tags = ["console"];
const adminWriteErrors = { ...consoleWriteErrors, 403: consoleErrorResponses.csrf };
const notFound = errorResponse("`label_not_found`: no label with this id in the operator's workspace (another workspace's included).");
const nameTaken = errorResponse("`label_name_taken`: the workspace has a label of this name (whatever its case).");

export const listLabelsRouteSchema = {
  tags,
  operationId: "listConsoleLabels",
  summary: "List the workspace's labels",
  description: "Every label of the workspace by name, with how many conversations carry it. Any role.",
  security: consoleSecurity,
  response: { 200: jsonResponse("The labels.", labelListResponseSchema), ...consoleReadErrors },
};

export const createLabelRouteSchema = {
  tags,
  operationId: "createConsoleLabel",
  summary: "Create a label",
  description:
    `A name (unique in the workspace whatever its case) and a colour \`#rrggbb\`. At most ${LABELS_PER_WORKSPACE_MAX} labels per workspace ` +
    "(422 `fields.name` beyond). Admins only.",
  security: consoleAdminSecurity,
  body: createLabelBodySchema,
  response: { 201: jsonResponse("The label.", labelResponseSchema), ...adminWriteErrors, 409: nameTaken },
};

export const updateLabelRouteSchema = {
  tags,
  operationId: "updateConsoleLabel",
  summary: "Rename or recolour a label",
  description: "Changes the name, the colour or both; every conversation carrying it shows the change. Admins only.",
  security: consoleAdminSecurity,
  params: labelParamsSchema,
  body: updateLabelBodySchema,
  response: { 200: jsonResponse("The label.", labelResponseSchema), ...adminWriteErrors, 404: notFound, 409: nameTaken },
};

export const deleteLabelRouteSchema = {
  tags,
  operationId: "deleteConsoleLabel",
  summary: "Delete a label",
  description: "Deletes the label and takes it off every conversation that carried it. Admins only.",
  security: consoleAdminSecurity,
  params: labelParamsSchema,
  response: {
    204: noContentResponse("Deleted, and off every conversation."),
    401: consoleErrorResponses.unauthenticated,
    403: consoleErrorResponses.csrf,
    404: notFound,
    422: consoleWriteErrors[422],
    500: consoleReadErrors[500],
  },
};
