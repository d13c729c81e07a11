/**
 * API tokens as other domains reach them (authentication of the Sources and WordPress APIs, the
 * console, the CLI): `api_tokens` is owned by tenants/.
 */
export { listWorkspaceApiTokens, revokeApiToken, useApiToken } from "./api-token-repository.js";
export type { ApiToken } from "./api-token-repository.js";
