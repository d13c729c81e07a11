import { LABELS_PER_WORKSPACE_MAX, type CreateLabelBody, type UpdateLabelBody } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { sqlStateOf } from "../db/sql-state.js";
import { AppError } from "../http/app-error.js";
import { insertLabel, updateLabel, type StoredLabel } from "./label-repository.js";

const nameTaken = (name: string) => new AppError("label_name_taken", `The workspace has a label named “${name}” already.`);

/** A name taken in the workspace (whatever its case) fails on labels_workspace_name_idx: 409, at once or in a race alike. */
async function refusingTakenName<T>(name: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (sqlStateOf(error) === "23505") throw nameTaken(name ?? "");
    throw error;
  }
}

/** Creates a label of the workspace: its name unique whatever the case, at most LABELS_PER_WORKSPACE_MAX of them (422 beyond). */
export async function createLabel(db: Queryable, workspaceId: string, body: CreateLabelBody): Promise<StoredLabel> {
  const created = await refusingTakenName(body.name, () => insertLabel(db, { workspaceId, name: body.name, colour: body.colour, max: LABELS_PER_WORKSPACE_MAX }));
  if (!created) throw new AppError("validation_failed", "The request is invalid.", { name: [`a workspace may have at most ${LABELS_PER_WORKSPACE_MAX} labels`] });
  return created;
}

/** Renames or recolours a label of the workspace (404 when it has none of this id). */
export async function changeLabel(db: Queryable, workspaceId: string, labelId: string, body: UpdateLabelBody): Promise<StoredLabel> {
  const changed = await refusingTakenName(body.name, () => updateLabel(db, workspaceId, labelId, body));
  if (!changed) throw new AppError("label_not_found", `No label ${labelId} in your workspace.`);
  return changed;
}
