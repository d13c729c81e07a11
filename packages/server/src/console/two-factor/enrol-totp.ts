import { AppError } from "../../http/app-error.js";
import type { Services } from "../../services.js";
import { confirmTotpSecret, findOperatorTwoFactor, storePendingTotpSecret } from "../../tenants/operator-two-factor.js";
import { hashRecoveryCode, newRecoveryCodes } from "./recovery-codes.js";
import { newTotpSecret, totpQrCode, totpTimeStepOf, totpUri } from "./totp.js";

/** Seals operators' authenticator secrets, the operator's id as associated data. */
export const TOTP_SECRET_PURPOSE = "operator totp secret";

export interface TotpEnrolment {
  secret: string;
  uri: string;
  qrCode: string;
}

/**
 * Begins enrolling an authenticator: a new secret, kept sealed as pending (a confirmed one stays in
 * force until a code of the new one confirms it), returned once as text, otpauth:// URI and QR code.
 */
export async function startTotpEnrolment(services: Services, operatorId: string): Promise<TotpEnrolment> {
  const state = await findOperatorTwoFactor(services.db, operatorId);
  if (!state) throw new AppError("unauthenticated", "The operator is gone; sign in again.");
  const secret = newTotpSecret();
  await storePendingTotpSecret(services.db, operatorId, services.secretBoxes(TOTP_SECRET_PURPOSE).seal(secret, operatorId));
  const uri = totpUri(secret, state.email);
  return { secret, uri, qrCode: await totpQrCode(uri) };
}

/**
 * Confirms the pending secret with a code of it: two-factor sign-in is on from now, the code is
 * used up, and ten new recovery codes (returned once, stored hashed) replace any earlier ones.
 */
export async function confirmTotpEnrolment(services: Services, operatorId: string, code: string): Promise<string[]> {
  const state = await findOperatorTwoFactor(services.db, operatorId);
  const pending = state?.pendingSecretSealed ?? null;
  if (!state || pending === null) throw new AppError("not_found", "No authenticator is being set up: start the enrolment first.");
  const secret = services.secretBoxes(TOTP_SECRET_PURPOSE).open(pending, operatorId);
  const timeStep = secret === null ? null : await totpTimeStepOf(secret, code.trim(), services.now(), null);
  if (timeStep === null) throw new AppError("invalid_code", "The code does not match the new authenticator; type the code it shows now.");
  const recoveryCodes = newRecoveryCodes();
  const confirmed = await services.db.transaction((tx) => confirmTotpSecret(tx, operatorId, pending, timeStep, recoveryCodes.map(hashRecoveryCode), services.now()));
  if (!confirmed) throw new AppError("not_found", "The enrolment changed meanwhile (started again elsewhere); use the newest QR code.");
  return recoveryCodes;
}
