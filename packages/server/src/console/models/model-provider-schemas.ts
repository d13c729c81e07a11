import {
  modelProviderSettingsResponseSchema,
  putModelProviderBodySchema,
  testModelProviderBodySchema,
  testModelProviderResponseSchema,
  workspaceModelProviderSchema,
} from "@frontdesk/contracts";
import { componentSchemas } from "../../openapi/component-schemas.js";
import { documentMembers } from "../../openapi/document-members.js";
import { errorResponse, errors, jsonResponse, noContentResponse } from "../../openapi/route-responses.js";
import { consoleAdminSecurity, consoleReadErrors, consoleWriteErrors } from "../console-responses.js";

documentMembers(workspaceModelProviderSchema);
componentSchemas.add(workspaceModelProviderSchema, {
  id: "WorkspaceModelProvider",
  description: "A workspace's answer model provider: never its API key, only whether one is set and its last 4 characters.",
});

const tags = ["console"];
const adminOnly = errorResponse("`forbidden`: only an admin manages the model provider; `csrf_origin_mismatch`: a change without `Origin` equal to FRONTDESK_PUBLIC_URL's origin.");
const invalid = errorResponse(
  "`validation_failed`: an unknown `provider`, a `base_url` that is not http(s) or is missing for `openai-compatible`, no `model`, or no `api_key` for `openai` or `anthropic` (`fields` names each); " +
    "`model_address_refused`: the `base_url`'s host is loopback, private, link-local … (unless FRONTDESK_MODEL_ALLOW_PRIVATE_NETWORKS=true, which Ollama on the same host needs) or does not resolve.",
);

export const getModelProviderRouteSchema = {
  tags,
  operationId: "getConsoleModelProvider",
  summary: "Read the workspace's answer model provider",
  description: "The workspace's provider (null: its agents use the instance's generator) and what the instance configures. Admins only.",
  security: consoleAdminSecurity,
  response: { 200: jsonResponse("The workspace's provider and the instance's default.", modelProviderSettingsResponseSchema), ...consoleReadErrors, 403: adminOnly },
};

export const putModelProviderRouteSchema = {
  tags,
  operationId: "putConsoleModelProvider",
  summary: "Set the workspace's answer model provider",
  description:
    "OpenAI, Anthropic, or any OpenAI-compatible server (Ollama, vLLM, LM Studio …: a base URL and an optional key), with the model the workspace's agents " +
    "answer with by default. The key is stored encrypted and never returned; left out, the stored one is kept while the provider and base URL stay the same. " +
    "Agents answer with it at once. Admins only.",
  security: consoleAdminSecurity,
  body: putModelProviderBodySchema,
  response: {
    200: jsonResponse("The workspace's provider and the instance's default.", modelProviderSettingsResponseSchema),
    ...consoleWriteErrors,
    403: adminOnly,
    422: invalid,
  },
};

export const deleteModelProviderRouteSchema = {
  tags,
  operationId: "deleteConsoleModelProvider",
  summary: "Remove the workspace's answer model provider",
  description: "Its key is deleted; the workspace's agents answer with the instance's generator again. Admins only.",
  security: consoleAdminSecurity,
  response: {
    204: noContentResponse("Removed (or there was none)."),
    401: consoleWriteErrors[401],
    403: adminOnly,
    500: errors.internal,
  },
};

export const testModelProviderRouteSchema = {
  tags,
  operationId: "testConsoleModelProvider",
  summary: "Test a model provider with one small call",
  description:
    "Makes ONE small real request (a one-word reply) to the stored provider (empty body) or to the unsaved settings in the body (a key left out is the stored " +
    "one, while the provider and base URL are the stored ones). The answer is 200 either way: `ok`, or the provider's own status, message and the start of " +
    "its body. Admins only.",
  security: consoleAdminSecurity,
  body: testModelProviderBodySchema,
  response: {
    200: jsonResponse("What the provider answered.", testModelProviderResponseSchema),
    ...consoleWriteErrors,
    403: adminOnly,
    422: invalid,
  },
};
