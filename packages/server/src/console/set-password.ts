import type { Database } from "../db/database.js";
import { AppError } from "../http/app-error.js";
import { hashConsoleSecret, looksLikeConsoleSecret } from "./console-secret.js";
import { consumePasswordToken, replaceOperatorPassword } from "./operator-credentials-repository.js";
import { hashPassword } from "./password-hash.js";
import { requireAcceptablePassword } from "./password-policy.js";

/**
 * POST /api/v1/console/password: the set-password link's token chooses the operator's password.
 * The token works once; the operator's sessions end. Returns the operator's id and the ids of the
 * sessions that ended (their realtime subscriptions end with them: operator.signed_out).
 */
export async function setPasswordWithToken(db: Database, input: { token: string; password: string }, now: Date): Promise<{ operatorId: string; endedSessionIds: string[] }> {
  requireAcceptablePassword(input.password);
  const invalid = new AppError("password_token_invalid", "This set-password link is invalid, used or expired; ask an admin for a new one.");
  if (!looksLikeConsoleSecret(input.token)) throw invalid;
  const passwordHash = await hashPassword(input.password);
  const outcome = await db.transaction(async (tx) => {
    const owner = await consumePasswordToken(tx, hashConsoleSecret(input.token), now);
    const endedSessionIds = owner ? await replaceOperatorPassword(tx, owner, passwordHash, now) : null;
    return owner && endedSessionIds ? { operatorId: owner, endedSessionIds } : null;
  });
  if (!outcome) throw invalid;
  return outcome;
}

/** `admin operator set-password`: sets the password directly; the operator's sessions end (their ids are returned). Null: no such operator. */
export async function setOperatorPassword(db: Database, operatorId: string, password: string, now: Date): Promise<string[] | null> {
  requireAcceptablePassword(password);
  const passwordHash = await hashPassword(password);
  return db.transaction((tx) => replaceOperatorPassword(tx, operatorId, passwordHash, now));
}
