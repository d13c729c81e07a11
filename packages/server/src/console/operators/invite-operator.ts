import { presentOperator } from "../../admin/present.js";
import { AppError } from "../../http/app-error.js";
import type { Services } from "../../services.js";
import { insertOperator, type OperatorRole } from "../../tenants/operators.js";
import { operatorEvent } from "../../tenants/settings-events.js";
import type { SignedInOperator } from "../authenticate-operator.js";
import { issueSetPasswordLink } from "../issue-set-password-link.js";

/**
 * POST /console/operators: an admin adds an operator to their workspace and receives the
 * one-time set-password link to hand over (as `frontdesk admin operator create` prints it).
 */
export async function inviteOperator(services: Services, admin: SignedInOperator, input: { email: string; name: string; role: OperatorRole }) {
  const { operator, link } = await services.db.transaction(async (tx) => {
    const inserted = await insertOperator(tx, { workspaceId: admin.workspaceId, ...input });
    if (!inserted) throw new AppError("validation_failed", "This workspace already has an operator with that e-mail.", { email: ["already taken"] });
    // Once committed, the workspace's consoles read their operators again (the link is not in the event).
    await services.events.raise(tx, operatorEvent("operator.invited", inserted, services.now()));
    return { operator: inserted, link: await issueSetPasswordLink(tx, services.config.publicUrl, inserted.id, services.now()) };
  });
  return { ...presentOperator(operator), set_password_url: link.url, set_password_expires_at: link.expiresAt.toISOString() };
}

/** POST /console/operators/{id}/password-link: a new set-password link (the invitation's was lost or expired). */
export async function reissuePasswordLink(services: Services, operatorId: string) {
  const link = await issueSetPasswordLink(services.db, services.config.publicUrl, operatorId, services.now());
  return { operator_id: operatorId, set_password_url: link.url, set_password_expires_at: link.expiresAt.toISOString() };
}
