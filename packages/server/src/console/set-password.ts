import type { Database } from "../db/database.js";
import { AppError } from "../http/app-error.js";
import { hashConsoleSecret, looksLikeConsoleSecret } from "./console-secret.js";
import { consumePasswordToken, replaceOperatorPassword } from "./operator-credentials-repository.js";
import { hashPassword } from "./password-hash.js";
import { requireAcceptablePassword } from "./password-policy.js";

/**
 * POST /api/v1/console/password: the set-password link's token chooses the operator's password.
 * The token works once; the operator's sessions end. Returns the operator's id.
 */
export async function setPasswordWithToken(db: Database, input: { token: string; password: string }, now: Date): Promise<string> {
  requireAcceptablePassword(input.password);
  const invalid = new AppError("password_token_invalid", "This set-password link is invalid, used or expired; ask an admin for a new one.");
  if (!looksLikeConsoleSecret(input.token)) throw invalid;
  const passwordHash = await hashPassword(input.password);
  const operatorId = await db.transaction(async (tx) => {
    const owner = await consumePasswordToken(tx, hashConsoleSecret(input.token), now);
    if (owner) await replaceOperatorPassword(tx, owner, passwordHash, now);
    return owner;
  });
  if (!operatorId) throw invalid;
  return operatorId;
}

/** `admin operator set-password`: sets the password directly; the operator's sessions end. False: no such operator. */
export async function setOperatorPassword(db: Database, operatorId: string, password: string, now: Date): Promise<boolean> {
  requireAcceptablePassword(password);
  const passwordHash = await hashPassword(password);
  return db.transaction((tx) => replaceOperatorPassword(tx, operatorId, passwordHash, now));
}
