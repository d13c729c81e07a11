import type { SetupBody, SetupStatus } from "@frontdesk/contracts";
import type { Queryable } from "../../db/database.js";
import { AppError } from "../../http/app-error.js";
import type { Services } from "../../services.js";
import { insertOperator, replaceOperatorPassword } from "../../tenants/operators.js";
import { anyOperatorExists, consumeSetupToken, findUsableSetupToken, lockSetup } from "../../tenants/setup-tokens.js";
import { findFirstWorkspace, insertWorkspace, renameWorkspace } from "../../tenants/workspaces.js";
import type { SignedInOperator } from "../authenticate-operator.js";
import { hashConsoleSecret, looksLikeConsoleSecret } from "../console-secret.js";
import { hashPassword } from "../password-hash.js";
import { requireAcceptablePassword } from "../password-policy.js";
import { startOperatorSession, type StartedOperatorSession } from "../start-operator-session.js";

export const DEFAULT_WORKSPACE_NAME = "My workspace";

const alreadyDone = () => new AppError("setup_already_done", "Frontdesk is already set up: an operator exists. Sign in instead, or ask an admin for an invitation.");
const tokenInvalid = () =>
  new AppError("setup_token_invalid", "This setup link is invalid, used or expired; restart `frontdesk serve` to print a new one.");

/** POST /api/v1/console/setup/status: whether the link's token can still create the first admin. */
export async function checkSetupToken(db: Queryable, token: string, now: Date): Promise<SetupStatus> {
  if (await anyOperatorExists(db)) return { valid: false, reason: "setup_done", expires_at: null };
  const expiresAt = looksLikeConsoleSecret(token) ? await findUsableSetupToken(db, hashConsoleSecret(token), now) : null;
  if (!expiresAt) return { valid: false, reason: "token_invalid", expires_at: null };
  return { valid: true, reason: null, expires_at: expiresAt.toISOString() };
}

export interface CompletedSetup {
  operator: SignedInOperator;
  workspace: { id: string; name: string };
  session: StartedOperatorSession;
}

/**
 * POST /api/v1/console/setup: spends the setup token and makes the workspace (or adopts the one
 * the CLI made before the first run) and its first admin with the chosen password, then starts
 * the admin's session. Setups are serialised, so two links used at once make one admin: the
 * second gets `setup_already_done`.
 */
export async function completeSetup(services: Services, body: SetupBody): Promise<CompletedSetup> {
  const now = services.now();
  if (await anyOperatorExists(services.db)) throw alreadyDone();
  if (!looksLikeConsoleSecret(body.token)) throw tokenInvalid();
  await requireAcceptablePassword(body.password);
  const passwordHash = await hashPassword(body.password);
  const tokenHash = hashConsoleSecret(body.token);

  const { operator, workspace } = await services.db.transaction(async (tx) => {
    await lockSetup(tx);
    if (await anyOperatorExists(tx)) throw alreadyDone();
    if (!(await consumeSetupToken(tx, tokenHash, now))) throw tokenInvalid();
    const existing = await findFirstWorkspace(tx);
    let workspace: { id: string; name: string };
    if (existing) {
      if (body.workspace_name !== undefined) await renameWorkspace(tx, existing.id, body.workspace_name);
      workspace = { id: existing.id, name: body.workspace_name ?? existing.name };
    } else {
      const created = await insertWorkspace(tx, body.workspace_name ?? DEFAULT_WORKSPACE_NAME, null);
      workspace = { id: created.id, name: created.name };
    }
    const inserted = await insertOperator(tx, { workspaceId: workspace.id, email: body.email, name: body.name, role: "admin" });
    if (!inserted) throw alreadyDone();
    await replaceOperatorPassword(tx, inserted.id, passwordHash, now);
    const operator: SignedInOperator = { id: inserted.id, workspaceId: workspace.id, role: "admin", name: inserted.name, email: inserted.email };
    return { operator, workspace };
  });
  return { operator, workspace, session: await startOperatorSession(services, operator.id) };
}
