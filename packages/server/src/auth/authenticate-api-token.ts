import { AppError } from "../http/app-error.js";
import type { Queryable } from "../db/database.js";
import { useApiToken, type ApiToken } from "../tenants/api-token-repository.js";
import { hashApiToken, looksLikeApiToken } from "./api-token-secret.js";
import { bearerToken } from "./session-token.js";

/**
 * The workspace API token of an Authorization header, checked against the store on every call
 * (a revoked token fails at once, in every process), holding `ability`.
 */
export async function authenticateApiToken(db: Queryable, authorization: string | undefined, ability: string): Promise<ApiToken> {
  const token = bearerToken(authorization);
  if (!token) throw new AppError("missing_token", "Send a workspace API token as 'Authorization: Bearer <token>'.");
  const stored = looksLikeApiToken(token) ? await useApiToken(db, hashApiToken(token)) : null;
  if (!stored) throw new AppError("invalid_token", "The API token is unknown or revoked.");
  if (!stored.abilities.includes(ability)) throw new AppError("missing_ability", `The API token lacks the '${ability}' ability.`);
  return stored;
}
