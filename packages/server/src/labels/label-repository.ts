import type { Queryable } from "../db/database.js";
import { newId } from "../db/ids.js";
import { iso } from "../db/timestamps.js";

/** A label of a workspace, as stored. */
export interface StoredLabel {
  id: string;
  workspaceId: string;
  name: string;
  colour: string;
  createdAt: string;
}

interface LabelRow {
  id: string;
  workspace_id: string;
  name: string;
  colour: string;
  created_at: Date;
}

const COLUMNS = "id, workspace_id, name, colour, created_at";

const toLabel = (row: LabelRow): StoredLabel => ({ id: row.id, workspaceId: row.workspace_id, name: row.name, colour: row.colour, createdAt: iso(row.created_at) });

/**
 * Inserts a label unless the workspace holds `max` already: null then. A name the workspace has in
 * any case fails on labels_workspace_name_idx (23505), which the caller turns into 409. The count
 * and the insert are one statement.
 */
export async function insertLabel(db: Queryable, input: { workspaceId: string; name: string; colour: string; max: number }): Promise<StoredLabel | null> {
  const { rows } = await db.query<LabelRow>(
    `INSERT INTO labels (id, workspace_id, name, colour)
     SELECT $1, $2, $3, $4 WHERE (SELECT count(*) FROM labels WHERE workspace_id = $2) < $5
     RETURNING ${COLUMNS}`,
    [newId("lbl"), input.workspaceId, input.name, input.colour, input.max],
  );
  return rows[0] ? toLabel(rows[0]) : null;
}

/** The workspace's labels by name, whatever the case (labels_workspace_name_idx). */
export async function listWorkspaceLabels(db: Queryable, workspaceId: string): Promise<StoredLabel[]> {
  const { rows } = await db.query<LabelRow>(`SELECT ${COLUMNS} FROM labels WHERE workspace_id = $1 ORDER BY lower(name), id`, [workspaceId]);
  return rows.map(toLabel);
}

/** One label of the workspace, or null (unknown, or another workspace's). */
export async function findWorkspaceLabel(db: Queryable, workspaceId: string, labelId: string): Promise<StoredLabel | null> {
  const { rows } = await db.query<LabelRow>(`SELECT ${COLUMNS} FROM labels WHERE id = $1 AND workspace_id = $2`, [labelId, workspaceId]);
  return rows[0] ? toLabel(rows[0]) : null;
}

/** Renames or recolours a label of the workspace; null when there is none. A taken name fails with 23505. */
export async function updateLabel(db: Queryable, workspaceId: string, labelId: string, change: { name?: string | undefined; colour?: string | undefined }): Promise<StoredLabel | null> {
  const { rows } = await db.query<LabelRow>(
    `UPDATE labels SET name = COALESCE($3, name), colour = COALESCE($4, colour), updated_at = now()
     WHERE id = $1 AND workspace_id = $2 RETURNING ${COLUMNS}`,
    [labelId, workspaceId, change.name ?? null, change.colour ?? null],
  );
  return rows[0] ? toLabel(rows[0]) : null;
}

/**
 * Deletes a label of the workspace; whether there was one. Its conversation_labels rows go with it
 * (their foreign key cascades, by conversation_labels_label_idx): it is off every conversation.
 */
export async function deleteLabel(db: Queryable, workspaceId: string, labelId: string): Promise<boolean> {
  const { rows } = await db.query(`DELETE FROM labels WHERE id = $1 AND workspace_id = $2 RETURNING id`, [labelId, workspaceId]);
  return rows.length > 0;
}
