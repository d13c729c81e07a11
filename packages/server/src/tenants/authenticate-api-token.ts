import { AppError } from "../http/app-error.js";
import type { Queryable } from "../db/database.js";
import { useApiToken, type ApiToken } from "./api-token-repository.js";
import type { API_TOKEN_ABILITIES } from "./create-api-token.js";
import { hashApiToken, looksLikeApiToken } from "../auth/api-token-secret.js";
import { bearerToken } from "../auth/session-token.js";

export type ApiTokenAbility = (typeof API_TOKEN_ABILITIES)[number];

/** What each ability grants besides itself: writing sources implies reading them. */
const IMPLIED_ABILITIES = new Map<string, readonly ApiTokenAbility[]>([
  ["sources:write", ["sources:read"]],
  ["sources:read", []],
  ["wp:sync", []],
  ["conversations:label", []],
]);

/** Whether a token holding `held` may do what `needed` allows. */
export function grantsAbility(held: readonly string[], needed: ApiTokenAbility): boolean {
  return held.some((ability) => ability === needed || (IMPLIED_ABILITIES.get(ability) ?? []).includes(needed));
}

/**
 * The workspace API token of an Authorization header, checked against the store on every call
 * (a revoked token fails at once, in every process), granting `ability`.
 */
export async function authenticateApiToken(db: Queryable, authorization: string | undefined, ability: ApiTokenAbility): Promise<ApiToken> {
  const token = bearerToken(authorization);
  if (!token) throw new AppError("missing_token", "Send a workspace API token as 'Authorization: Bearer <token>'.");
  const stored = looksLikeApiToken(token) ? await useApiToken(db, hashApiToken(token)) : null;
  if (!stored) throw new AppError("invalid_token", "The API token is unknown or revoked.");
  if (!grantsAbility(stored.abilities, ability)) throw new AppError("missing_ability", `The API token lacks the '${ability}' ability.`);
  return stored;
}
