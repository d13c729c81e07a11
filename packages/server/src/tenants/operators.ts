/**
 * The operators of a workspace as other domains reach them (the console's sign-in, invitations,
 * assignment, the admin CLI): `operators` (with their passwords and set-password links) is owned
 * by tenants/, whose repositories alone hold its SQL.
 */
export {
  OPERATOR_ROLES,
  anyOperatorAway,
  availableOperatorIds,
  deleteOperator,
  findOperator,
  insertOperator,
  listWorkspaceOperators,
  setOperatorAway,
  toOperator,
} from "./operator-repository.js";
export type { Operator, OperatorRole, OperatorRow } from "./operator-repository.js";
export { findWorkspaceOperator, findWorkspaceOperatorByEmail, lockWorkspaceAdmins, updateOperatorRole } from "./operator-admin-repository.js";
export {
  consumePasswordToken,
  findOperatorCredentials,
  insertPasswordToken,
  replaceOperatorPassword,
} from "./operator-credentials-repository.js";
export type { OperatorAccount } from "./operator-credentials-repository.js";
