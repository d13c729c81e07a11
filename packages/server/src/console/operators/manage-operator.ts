import { presentOperator } from "../../admin/present.js";
import { AppError } from "../../http/app-error.js";
import type { Services } from "../../services.js";
import { deleteOperator, findWorkspaceOperator, lockWorkspaceAdmins, type Operator, type OperatorRole, updateOperatorRole } from "../../tenants/operators.js";
import type { SignedInOperator } from "../authenticate-operator.js";
import { deleteOperatorSessions } from "../../tenants/operator-sessions.js";
import { forgetOperatorDevices } from "../../push/push-subscriptions.js";
import { operatorEvent, signedOutEvent } from "../../tenants/settings-events.js";

const notFound = (operatorId: string) => new AppError("operator_not_found", `No operator ${operatorId} in this workspace.`);
const lastAdmin = () => new AppError("last_admin", "The workspace's last admin cannot be demoted or removed: make another operator an admin first.");

/** Would the operator's leaving the admins (`target` demoted or removed) leave the workspace without one? */
function leavesNoAdmin(admins: string[], target: Operator): boolean {
  return target.role === "admin" && admins.length === 1 && admins[0] === target.id;
}

/**
 * PATCH /console/operators/{id}: an admin changes an operator's role. Demoting the workspace's
 * last admin is 409 `last_admin` (checked under a lock of the admins, so two demotions at once
 * cannot both pass). The new role applies to the operator's next request: the guard reads it from the store.
 */
export async function changeOperatorRole(services: Services, admin: SignedInOperator, operatorId: string, role: OperatorRole) {
  const updated = await services.db.transaction(async (tx) => {
    const admins = await lockWorkspaceAdmins(tx, admin.workspaceId);
    const target = await findWorkspaceOperator(tx, admin.workspaceId, operatorId);
    if (!target) throw notFound(operatorId);
    if (role !== "admin" && leavesNoAdmin(admins, target)) throw lastAdmin();
    const changed = await updateOperatorRole(tx, admin.workspaceId, operatorId, role);
    if (!changed) throw notFound(operatorId);
    await services.events.raise(tx, operatorEvent("operator.updated", changed, services.now()));
    return changed;
  });
  return presentOperator(updated);
}

/**
 * DELETE /console/operators/{id}: an admin removes an operator (themselves included, while another
 * admin remains). Their sessions, set-password links and notifications go with them (signed out
 * at once, in every process); their conversations lose their assignee and their messages keep
 * the author's name.
 */
export async function removeOperator(services: Services, admin: SignedInOperator, operatorId: string) {
  const removed = await services.db.transaction(async (tx) => {
    const admins = await lockWorkspaceAdmins(tx, admin.workspaceId);
    const target = await findWorkspaceOperator(tx, admin.workspaceId, operatorId);
    if (!target) throw notFound(operatorId);
    if (leavesNoAdmin(admins, target)) throw lastAdmin();
    const deleted = await deleteOperator(tx, target.id);
    if (!deleted) throw notFound(operatorId);
    await services.events.raise(tx, operatorEvent("operator.removed", deleted, services.now()));
    return deleted;
  });
  return { ...presentOperator(removed), removed: true as const };
}

/**
 * DELETE /console/operators/{id}/sessions: ends every console session of the operator (the
 * request's own included when it is theirs) and stops their devices' push alerts (a lost device
 * keeps showing alerts otherwise). Anyone may sign themselves out everywhere; only an
 * admin may sign out another operator of the workspace.
 */
export async function signOutEverywhere(services: Services, actor: SignedInOperator, operatorId: string) {
  if (operatorId !== actor.id) {
    if (actor.role !== "admin") throw new AppError("forbidden", "Only an admin may sign out another operator.");
    if (!(await findWorkspaceOperator(services.db, actor.workspaceId, operatorId))) throw notFound(operatorId);
  }
  const ended = await services.db.transaction(async (tx) => {
    await forgetOperatorDevices(tx, operatorId);
    const sessionIds = await deleteOperatorSessions(tx, operatorId);
    // Once committed, the ended sessions' realtime subscriptions end with them, on every process.
    await services.events.raise(tx, signedOutEvent(actor.workspaceId, operatorId, sessionIds));
    return sessionIds;
  });
  return { operator_id: operatorId, sessions_ended: ended.length };
}
