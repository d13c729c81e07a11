import { createHash } from "node:crypto";
import { randomBase62 } from "../db/ids.js";

export const API_TOKEN_PREFIX = "fdk_";
const API_TOKEN_BODY_LENGTH = 48;

/** A fresh plaintext workspace API token: `fdk_` and 48 random base62 characters. */
export function generateApiToken(): string {
  return `${API_TOKEN_PREFIX}${randomBase62(API_TOKEN_BODY_LENGTH)}`;
}

/** The only form in which a secret (an API token, a console session or set-password secret) is stored: its SHA-256, hex. */
export function hashApiToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export function looksLikeApiToken(token: string): boolean {
  return token.length === API_TOKEN_PREFIX.length + API_TOKEN_BODY_LENGTH && token.startsWith(API_TOKEN_PREFIX);
}
