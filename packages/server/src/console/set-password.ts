import type { Database } from "../db/database.js";
import { sqlStateOf } from "../db/sql-state.js";
import { AppError } from "../http/app-error.js";
import { hashConsoleSecret, looksLikeConsoleSecret } from "./console-secret.js";
import { consumePasswordToken, replaceOperatorPassword } from "../tenants/operators.js";
import { hashPassword } from "./password-hash.js";
import { requireAcceptablePassword } from "./password-policy.js";
import { forgetOperatorDevices } from "../push/push-subscriptions.js";

/**
 * POST /api/v1/console/password: the set-password link's token chooses the operator's password.
 * The token works once; the operator's sessions end, and their devices' push alerts stop. Returns the operator's id and the ids of the
 * sessions that ended (their realtime subscriptions end with them: operator.signed_out).
 *
 * Accepting an invitation is where an e-mail that already has an account meets it: the invited
 * person is told (409 `email_taken`, emailTaken below) and the invitation stays as it was, its link
 * unused. The inviting admin was told nothing (POST /console/operators answers every invitation
 * alike), so inviting is no way to learn whether an address is another workspace's operator.
 */
export async function setPasswordWithToken(db: Database, input: { token: string; password: string }, now: Date): Promise<{ operatorId: string; endedSessionIds: string[] }> {
  await requireAcceptablePassword(input.password);
  const invalid = new AppError("password_token_invalid", "This set-password link is invalid, used or expired; ask an admin for a new one.");
  if (!looksLikeConsoleSecret(input.token)) throw invalid;
  const passwordHash = await hashPassword(input.password);
  const outcome = await db
    .transaction(async (tx) => {
      const owner = await consumePasswordToken(tx, hashConsoleSecret(input.token), now);
      const endedSessionIds = owner ? await replaceOperatorPassword(tx, owner, passwordHash, now) : null;
      if (owner && endedSessionIds) await forgetOperatorDevices(tx, owner);
      return owner && endedSessionIds ? { operatorId: owner, endedSessionIds } : null;
    })
    .catch(refuseTakenEmail);
  if (!outcome) throw invalid;
  return outcome;
}

/** `admin operator set-password`: sets the password directly; the operator's sessions end (their ids are returned) and their devices' push alerts stop. Null: no such operator. */
export async function setOperatorPassword(db: Database, operatorId: string, password: string, now: Date): Promise<string[] | null> {
  await requireAcceptablePassword(password);
  const passwordHash = await hashPassword(password);
  return db
    .transaction(async (tx) => {
      const ended = await replaceOperatorPassword(tx, operatorId, passwordHash, now);
      if (ended) await forgetOperatorDevices(tx, operatorId);
      return ended;
    })
    .catch(refuseTakenEmail);
}

/** An account of another operator (another workspace's) has the invitation's e-mail: what the invited person is told. */
const emailTaken = (): AppError =>
  new AppError(
    "email_taken",
    "This e-mail address already has a Frontdesk account, in another workspace; an address has one account. Sign in with that account, or ask whoever invited you to invite another address.",
  );

/** Setting a password makes the operator an account, and an e-mail has one account (operators_account_email_idx): its unique violation is emailTaken. */
function refuseTakenEmail(error: unknown): never {
  if (sqlStateOf(error) === "23505") throw emailTaken();
  throw error;
}
