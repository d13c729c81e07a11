import { AppError } from "../../http/app-error.js";
import type { Services } from "../../services.js";
import { findOperatorTwoFactor, useRecoveryCode, useTotpTimeStep } from "../../tenants/operator-two-factor.js";
import { TOTP_SECRET_PURPOSE } from "./enrol-totp.js";
import { hashRecoveryCode } from "./recovery-codes.js";
import { totpTimeStepOf } from "./totp.js";

/** A second factor as typed: the authenticator's current code, or one of the recovery codes. */
export type SecondFactor = { code: string } | { recoveryCode: string };

/**
 * Whether the second factor is the operator's, using it up: a code's time step is recorded (the same
 * code, or an earlier one, is refused from then on: replay), a recovery code is marked used. False
 * for anything else, including an operator without an authenticator.
 */
export async function useSecondFactor(services: Services, operatorId: string, factor: SecondFactor): Promise<boolean> {
  const state = await findOperatorTwoFactor(services.db, operatorId);
  if (!state?.secretSealed) return false;
  if ("recoveryCode" in factor) return useRecoveryCode(services.db, operatorId, hashRecoveryCode(factor.recoveryCode), services.now());
  const secret = services.secretBoxes(TOTP_SECRET_PURPOSE).open(state.secretSealed, operatorId);
  if (secret === null) return false;
  const timeStep = await totpTimeStepOf(secret, factor.code.trim(), services.now(), state.lastTimeStep);
  return timeStep !== null && (await useTotpTimeStep(services.db, operatorId, timeStep));
}

/** As useSecondFactor, throwing 401 `invalid_code` when it is not the operator's. */
export async function requireSecondFactor(services: Services, operatorId: string, factor: SecondFactor): Promise<void> {
  if (!(await useSecondFactor(services, operatorId, factor))) {
    throw new AppError("invalid_code", "The code is wrong, expired or already used.");
  }
}
