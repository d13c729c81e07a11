import { SAVED_REPLIES_PER_SCOPE_MAX, type CreateSavedReplyBody, type SavedReply, type UpdateSavedReplyBody } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { AppError } from "../http/app-error.js";
import { deleteSavedReply, findVisibleSavedReply, insertSavedReply, ownerOf, updateSavedReply } from "./saved-reply-repository.js";

/** The signed-in operator managing saved replies. */
export interface SavedReplyManager {
  id: string;
  workspaceId: string;
  role: "admin" | "agent";
}

const shortcutTaken = (shortcut: string, scope: "workspace" | "personal") =>
  new AppError("validation_failed", "The request is invalid.", {
    shortcut: [`/${shortcut} is already a shortcut of ${scope === "workspace" ? "the workspace's" : "your"} saved replies`],
  });
const notFound = (id: string) => new AppError("not_found", `No saved reply ${id} of yours or of this workspace.`);
const adminsOnly = () => new AppError("forbidden", "Only admins manage the workspace's saved replies; write a personal one instead.");

/** A personal reply for anyone, the workspace's for admins (403 `forbidden` for an agent); a shortcut taken in that scope, or a full scope, is 422. */
export async function createSavedReply(db: Queryable, operator: SavedReplyManager, body: CreateSavedReplyBody): Promise<SavedReply> {
  if (body.scope === "workspace" && operator.role !== "admin") throw adminsOnly();
  const outcome = await insertSavedReply(db, {
    workspaceId: operator.workspaceId,
    ownerId: ownerOf(body.scope, operator.id),
    title: body.title,
    shortcut: body.shortcut,
    content: body.content,
    max: SAVED_REPLIES_PER_SCOPE_MAX,
  });
  if ("saved" in outcome) return outcome.saved;
  if (outcome.refused === "shortcut_taken") throw shortcutTaken(body.shortcut, body.scope);
  throw new AppError("validation_failed", "The request is invalid.", { scope: [`holds ${SAVED_REPLIES_PER_SCOPE_MAX} saved replies already, the most it may`] });
}

/**
 * The reply the operator may change: their own, or the workspace's when they are an admin (an
 * agent gets 403 for the workspace's); another operator's personal reply is 404, as unknown.
 */
async function manageable(db: Queryable, operator: SavedReplyManager, id: string): Promise<SavedReply> {
  const reply = await findVisibleSavedReply(db, { workspaceId: operator.workspaceId, operatorId: operator.id }, id);
  if (!reply) throw notFound(id);
  if (reply.scope === "workspace" && operator.role !== "admin") throw adminsOnly();
  return reply;
}

export async function changeSavedReply(db: Queryable, operator: SavedReplyManager, id: string, change: UpdateSavedReplyBody): Promise<SavedReply> {
  const reply = await manageable(db, operator, id);
  const outcome = await updateSavedReply(db, { workspaceId: operator.workspaceId, ownerId: reply.owner_id, id }, change);
  if ("saved" in outcome) return outcome.saved;
  if (outcome.refused === "shortcut_taken") throw shortcutTaken(change.shortcut ?? reply.shortcut, reply.scope);
  throw notFound(id);
}

export async function removeSavedReply(db: Queryable, operator: SavedReplyManager, id: string): Promise<void> {
  const reply = await manageable(db, operator, id);
  if (!(await deleteSavedReply(db, { workspaceId: operator.workspaceId, ownerId: reply.owner_id, id }))) throw notFound(id);
}
