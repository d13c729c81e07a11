import { AppError } from "../../http/app-error.js";
import type { Services } from "../../services.js";
import { findOperator } from "../../tenants/operators.js";
import type { SignedInOperator } from "../authenticate-operator.js";
import { recordSignInFailure, recordSignInSuccess, requireSignInAllowed } from "../sign-in-throttle.js";
import { startOperatorSession, type StartedOperatorSession } from "../start-operator-session.js";
import { useSecondFactor, type SecondFactor } from "./check-second-factor.js";
import { confirmTotpEnrolment } from "./enrol-totp.js";
import type { PendingSignIn } from "./pending-sign-in.js";

export interface CompletedSignIn {
  operator: SignedInOperator;
  session: StartedOperatorSession;
  /** Enrolling at sign-in: the new recovery codes, shown once. */
  recoveryCodes?: string[];
}

/**
 * The second step of a sign-in: a code (or a recovery code) of the operator's authenticator, or the
 * first code of the authenticator being enrolled. Waits and failures count as wrong passwords do
 * (the same keys: the operator's e-mail and the client's address), so a known password does not
 * open unlimited guessing at six digits.
 */
export async function completeSignIn(
  services: Services,
  pending: PendingSignIn,
  address: string,
  factor: SecondFactor,
): Promise<CompletedSignIn> {
  const operator = await findOperator(services.db, pending.operatorId);
  if (!operator) throw new AppError("sign_in_expired", "The sign-in has expired; sign in again.");
  const attempt = { email: operator.email, address };
  await requireSignInAllowed(services, attempt);
  let recoveryCodes: string[] | undefined;
  if (pending.step === "enrol_totp") {
    if (!("code" in factor)) throw new AppError("validation_failed", "Type the code the new authenticator shows.", { code: ["required"] });
    recoveryCodes = await confirmTotpEnrolment(services, operator.id, factor.code).catch(async (error: unknown) => {
      if (error instanceof AppError && error.code === "invalid_code") await recordSignInFailure(services, attempt);
      throw error;
    });
  } else if (!(await useSecondFactor(services, operator.id, factor))) {
    await recordSignInFailure(services, attempt);
    throw new AppError("invalid_code", "The code is wrong, expired or already used.");
  }
  await recordSignInSuccess(services, attempt);
  const signedIn: SignedInOperator = { id: operator.id, workspaceId: operator.workspaceId, role: operator.role, name: operator.name, email: operator.email };
  return { operator: signedIn, session: await startOperatorSession(services, operator.id), ...(recoveryCodes ? { recoveryCodes } : {}) };
}
