import { AppError } from "../http/app-error.js";
import type { Services } from "../services.js";
import type { SignedInOperator } from "./authenticate-operator.js";
import { findOperatorCredentials } from "../tenants/operators.js";
import { findOperatorTwoFactor } from "../tenants/operator-two-factor.js";
import { passwordSignInAllowed } from "../tenants/workspace-sso.js";
import type { PendingStep } from "./two-factor/pending-sign-in.js";
import { verifyAgainstDummy, verifyPassword } from "./password-hash.js";
import { startOperatorSession, type StartedOperatorSession } from "./start-operator-session.js";
import { recordSignInFailure, recordSignInSuccess } from "./sign-in-throttle.js";

/**
 * POST /api/v1/console/session: checks the e-mail's password and starts a session. An unknown
 * e-mail, an operator without a password yet and a wrong password get the same answer after the
 * same work (a scrypt of the attempt), so neither the answer nor its timing tells which. Failures
 * make the next attempts wait (sign-in-throttle.ts, whose requireSignInAllowed the route calls first),
 * alike for an e-mail with an account and without.
 */
export type SignInOutcome =
  | { kind: "signed_in"; operator: SignedInOperator; session: StartedOperatorSession }
  /** The password was right; a code of the operator's authenticator is due, or enrolling one their workspace requires. */
  | { kind: "second_step"; operator: SignedInOperator; step: PendingStep };

export async function signIn(services: Services, input: { email: string; password: string; address: string }): Promise<SignInOutcome> {
  const attempt = { email: input.email, address: input.address };
  const found = await findOperatorCredentials(services.db, input.email);
  const matches = found?.passwordHash ? await verifyPassword(input.password, found.passwordHash) : await verifyAgainstDummy(input.password);
  // A workspace that signs in only through its provider refuses passwords with the same answer as a wrong one (no oracle of a right password).
  if (!found || !matches || !(await passwordSignInAllowed(services.db, found.operator.workspaceId))) {
    await recordSignInFailure(services, attempt);
    throw new AppError("invalid_credentials", "The e-mail or the password is wrong.");
  }
  // The pair's count starts again only once the whole sign-in succeeded: a right password does not buy fresh guesses at codes.
  const twoFactor = await findOperatorTwoFactor(services.db, found.operator.id);
  if (twoFactor?.secretSealed) return { kind: "second_step", operator: found.operator, step: "totp" };
  if (twoFactor?.requiredByWorkspace) return { kind: "second_step", operator: found.operator, step: "enrol_totp" };
  await recordSignInSuccess(services, attempt);
  return { kind: "signed_in", operator: found.operator, session: await startOperatorSession(services, found.operator.id) };
}
