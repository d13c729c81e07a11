import { changeWorkspaceEmbeddingsBodySchema, workspaceEmbeddingsResponseSchema, workspaceEmbeddingsSchema } from "@frontdesk/contracts";
import { consoleAdminSecurity, consoleReadErrors, consoleWriteErrors } from "../console-responses.js";
import { componentSchemas } from "../../openapi/component-schemas.js";
import { documentMembers } from "../../openapi/document-members.js";
import { errorResponse, jsonResponse } from "../../openapi/route-responses.js";

documentMembers(workspaceEmbeddingsSchema);
componentSchemas.add(workspaceEmbeddingsSchema, {
  id: "WorkspaceEmbeddings",
  description: "The workspace's embeddings provider in use, and the re-embedding under way (its progress, or why it failed). Never an API key.",
});

const tags = ["console"];
const adminOnly = errorResponse("`forbidden`: only an admin chooses the workspace's embeddings; `csrf_origin_mismatch`: a change without `Origin` equal to FRONTDESK_PUBLIC_URL's origin.");
const refused = errorResponse(
  "`validation_failed`: a bad member; an `openai-compatible` choice without `base_url` or `model`, with a `base_url` that is not http(s), carries credentials, " +
    "does not resolve or resolves to an address the guard refuses (loopback, private … unless FRONTDESK_MODEL_ALLOW_PRIVATE_NETWORKS=true), or a model whose " +
    "`dimensions` are unknown; `local` when the local model's files are not on the instance.",
);

export const showEmbeddingsRouteSchema = {
  tags,
  operationId: "showConsoleEmbeddings",
  summary: "Show the workspace's embeddings provider",
  description: "The provider answers use now, and the re-embedding under way, with its progress (`done` of `total` chunks) or its error. Admins only.",
  security: consoleAdminSecurity,
  response: { 200: jsonResponse("The workspace's embeddings.", workspaceEmbeddingsResponseSchema), ...consoleReadErrors, 403: adminOnly },
};

export const changeEmbeddingsRouteSchema = {
  tags,
  operationId: "changeConsoleEmbeddings",
  summary: "Choose the workspace's embeddings provider",
  description:
    "Re-embeds the workspace's knowledge with the chosen provider in the background: answers keep using the current vectors until every chunk " +
    "has its new one, then switch at once, and the old vectors are deleted. A re-embedding under way is superseded. A choice whose vectors are " +
    "the current ones (the same embedder) applies at once. Admins only.",
  security: consoleAdminSecurity,
  body: changeWorkspaceEmbeddingsBodySchema,
  response: { 202: jsonResponse("The workspace's embeddings, the re-embedding started.", workspaceEmbeddingsResponseSchema), ...consoleWriteErrors, 403: adminOnly, 422: refused },
};

export const retryEmbeddingsRouteSchema = {
  tags,
  operationId: "retryConsoleEmbeddings",
  summary: "Retry a failed re-embedding",
  description: "Resumes a re-embedding that failed (its provider was down) where it stopped; with none failed, changes nothing. Admins only.",
  security: consoleAdminSecurity,
  response: {
    202: jsonResponse("The workspace's embeddings, the re-embedding running again.", workspaceEmbeddingsResponseSchema),
    ...consoleWriteErrors,
    403: adminOnly,
  },
};
