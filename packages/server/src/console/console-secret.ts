import { randomBytes } from "node:crypto";
import { hashApiToken } from "../auth/api-token-secret.js";

/** A fresh secret for a session cookie or a set-password link: 32 random bytes, base64url. */
export function generateConsoleSecret(): string {
  return randomBytes(32).toString("base64url");
}

/** The only form in which a session or set-password secret is stored: its SHA-256, hex, as API tokens are. */
export const hashConsoleSecret = hashApiToken;

/** A secret as generateConsoleSecret makes them (43 base64url characters); anything else is not looked up. */
export function looksLikeConsoleSecret(secret: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(secret);
}
