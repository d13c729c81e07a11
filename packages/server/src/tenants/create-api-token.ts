import { generateApiToken, hashApiToken } from "../auth/api-token-secret.js";
import type { Queryable } from "../db/database.js";
import { AppError } from "../http/app-error.js";
import { insertApiToken, type ApiToken } from "./api-token-repository.js";
import { findWorkspace } from "./workspace-repository.js";

export const API_TOKEN_ABILITIES = ["sources:write", "sources:read", "wp:sync", "conversations:label"] as const;

/** Issues a workspace API token. The plaintext is returned here and never again: only its hash is kept. */
export async function createApiToken(
  db: Queryable,
  input: { workspaceId: string; name: string; abilities: string[] },
): Promise<ApiToken & { token: string }> {
  if (!(await findWorkspace(db, input.workspaceId))) throw new AppError("not_found", `No workspace ${input.workspaceId}.`);
  const token = generateApiToken();
  const stored = await insertApiToken(db, {
    workspaceId: input.workspaceId,
    name: input.name,
    tokenHash: hashApiToken(token),
    prefix: token.slice(0, 8),
    abilities: [...new Set(input.abilities)],
  });
  return { ...stored, token };
}
