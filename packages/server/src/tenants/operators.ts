/**
 * The operators of a workspace as other domains reach them (the console's sign-in, invitations,
 * assignment, the admin CLI): `operators` is owned by tenants/, whose repository alone holds its
 * SQL.
 */
export { OPERATOR_ROLES, deleteOperator, findOperator, insertOperator, listWorkspaceOperators, toOperator } from "./operator-repository.js";
export type { Operator, OperatorRole, OperatorRow } from "./operator-repository.js";
