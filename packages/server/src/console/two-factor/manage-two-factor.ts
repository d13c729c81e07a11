import type { TwoFactorStatus } from "@frontdesk/contracts";
import { AppError } from "../../http/app-error.js";
import type { Services } from "../../services.js";
import { findOperatorTwoFactor, removeTotp, replaceRecoveryCodes } from "../../tenants/operator-two-factor.js";
import { requireSecondFactor, type SecondFactor } from "./check-second-factor.js";
import { hashRecoveryCode, newRecoveryCodes } from "./recovery-codes.js";

export async function twoFactorStatus(services: Services, operatorId: string): Promise<TwoFactorStatus> {
  const state = await findOperatorTwoFactor(services.db, operatorId);
  if (!state) throw new AppError("unauthenticated", "The operator is gone; sign in again.");
  return {
    enabled: state.secretSealed !== null,
    enabled_at: state.enabledAt?.toISOString() ?? null,
    recovery_codes_left: state.secretSealed === null ? 0 : state.recoveryCodesLeft,
    required_by_workspace: state.requiredByWorkspace,
  };
}

/** Turns two-factor sign-in off, with a current code (or a recovery code): refused while the workspace requires it. */
export async function turnOffTwoFactor(services: Services, operatorId: string, factor: SecondFactor): Promise<void> {
  const state = await findOperatorTwoFactor(services.db, operatorId);
  if (state?.requiredByWorkspace) throw new AppError("two_factor_required", "The workspace requires two-factor sign-in: it cannot be turned off.");
  await requireSecondFactor(services, operatorId, factor);
  await services.db.transaction((tx) => removeTotp(tx, operatorId));
}

/** Ten new recovery codes replace the old ones, with a current code (or a recovery code). */
export async function renewRecoveryCodes(services: Services, operatorId: string, factor: SecondFactor): Promise<string[]> {
  await requireSecondFactor(services, operatorId, factor);
  const codes = newRecoveryCodes();
  await services.db.transaction((tx) => replaceRecoveryCodes(tx, operatorId, codes.map(hashRecoveryCode), services.now()));
  return codes;
}
