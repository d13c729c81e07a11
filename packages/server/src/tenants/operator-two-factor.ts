/**
 * Operators' two-factor sign-in (TOTP secrets, recovery codes, the workspace's requirement) as the
 * console reaches it: the columns of `operators` and `workspaces` and `operator_recovery_codes` are
 * owned by tenants/, whose repository alone holds their SQL.
 */
export {
  confirmTotpSecret,
  findOperatorTwoFactor,
  removeTotp,
  replaceRecoveryCodes,
  setWorkspaceTwoFactorRequired,
  storePendingTotpSecret,
  useRecoveryCode,
  useTotpTimeStep,
  workspaceRequiresTwoFactor,
} from "./operator-two-factor-repository.js";
export type { OperatorTwoFactor } from "./operator-two-factor-repository.js";
