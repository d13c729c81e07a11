import type { SavedReply, SavedReplyScope } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { newId } from "../db/ids.js";
import { sqlStateOf } from "../db/sql-state.js";
import { iso } from "../db/timestamps.js";

/** Whose saved replies a statement reads: the workspace's, and the operator's own. */
export interface SavedReplyReader {
  workspaceId: string;
  operatorId: string;
}

interface SavedReplyRow {
  id: string;
  owner_operator_id: string | null;
  title: string;
  shortcut: string;
  content: string;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = "id, owner_operator_id, title, shortcut, content, created_at, updated_at";

const toSavedReply = (row: SavedReplyRow): SavedReply => ({
  id: row.id,
  scope: row.owner_operator_id === null ? "workspace" : "personal",
  owner_id: row.owner_operator_id,
  title: row.title,
  shortcut: row.shortcut,
  content: row.content,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

/** The saved replies the operator sees: the workspace's and their own, by shortcut (one partial index each). */
export async function listVisibleSavedReplies(db: Queryable, reader: SavedReplyReader): Promise<SavedReply[]> {
  const { rows } = await db.query<SavedReplyRow>(
    `SELECT ${COLUMNS} FROM saved_replies WHERE workspace_id = $1 AND owner_operator_id IS NULL
     UNION ALL
     SELECT ${COLUMNS} FROM saved_replies WHERE owner_operator_id = $2 AND workspace_id = $1
     ORDER BY shortcut, owner_operator_id NULLS FIRST, id`,
    [reader.workspaceId, reader.operatorId],
  );
  return rows.map(toSavedReply);
}

/** A saved reply the operator sees (the workspace's or their own), or null: another operator's personal reply reads as unknown. */
export async function findVisibleSavedReply(db: Queryable, reader: SavedReplyReader, id: string): Promise<SavedReply | null> {
  const { rows } = await db.query<SavedReplyRow>(
    `SELECT ${COLUMNS} FROM saved_replies WHERE id = $1 AND workspace_id = $2 AND (owner_operator_id IS NULL OR owner_operator_id = $3)`,
    [id, reader.workspaceId, reader.operatorId],
  );
  return rows[0] ? toSavedReply(rows[0]) : null;
}

/**
 * The rows of one scope, `$3` the owner: the workspace's (`owner_operator_id IS NULL`, `$3` null)
 * or an operator's own; each reads through its partial unique index.
 */
const ofScope = (ownerId: string | null) => (ownerId === null ? "owner_operator_id IS NULL AND $3::text IS NULL" : "owner_operator_id = $3::text");

export type InsertOutcome = { saved: SavedReply } | { refused: "shortcut_taken" | "limit_reached" };

/**
 * Inserts a saved reply of the scope (the workspace's, or `ownerId`'s) unless the scope holds `max`
 * already or has the shortcut: one statement, so two at once cannot both pass either check unseen.
 */
export async function insertSavedReply(
  db: Queryable,
  reply: { workspaceId: string; ownerId: string | null; title: string; shortcut: string; content: string; max: number },
): Promise<InsertOutcome> {
  const { rows } = await db.query<SavedReplyRow>(
    `INSERT INTO saved_replies (id, workspace_id, owner_operator_id, title, shortcut, content)
     SELECT $1, $2, $3::text, $4, $5, $6
     WHERE (SELECT count(*) FROM saved_replies
            WHERE workspace_id = $2 AND ${ofScope(reply.ownerId)}) < $7
     ON CONFLICT DO NOTHING
     RETURNING ${COLUMNS}`,
    [newId("svr"), reply.workspaceId, reply.ownerId, reply.title, reply.shortcut, reply.content, reply.max],
  );
  if (rows[0]) return { saved: toSavedReply(rows[0]) };
  const taken = await db.query(`SELECT 1 FROM saved_replies WHERE workspace_id = $1 AND shortcut = $2 AND ${ofScope(reply.ownerId)}`, [
    reply.workspaceId,
    reply.shortcut,
    reply.ownerId,
  ]);
  return { refused: taken.rows.length > 0 ? "shortcut_taken" : "limit_reached" };
}

export type UpdateOutcome = { saved: SavedReply } | { refused: "not_found" | "shortcut_taken" };

/** Changes a saved reply of this scope (the workspace's when `ownerId` is null, else that operator's own). */
export async function updateSavedReply(
  db: Queryable,
  target: { workspaceId: string; ownerId: string | null; id: string },
  change: { title?: string | undefined; shortcut?: string | undefined; content?: string | undefined },
): Promise<UpdateOutcome> {
  try {
    const { rows } = await db.query<SavedReplyRow>(
      `UPDATE saved_replies SET title = COALESCE($4, title), shortcut = COALESCE($5, shortcut), content = COALESCE($6, content), updated_at = now()
       WHERE id = $1 AND workspace_id = $2 AND ${ofScope(target.ownerId)}
       RETURNING ${COLUMNS}`,
      [target.id, target.workspaceId, target.ownerId, change.title ?? null, change.shortcut ?? null, change.content ?? null],
    );
    return rows[0] ? { saved: toSavedReply(rows[0]) } : { refused: "not_found" };
  } catch (error) {
    // unique_violation: another reply of the scope has this shortcut (a single statement: nothing else to undo).
    if (sqlStateOf(error) === "23505") return { refused: "shortcut_taken" };
    throw error;
  }
}

/** Deletes a saved reply of this scope; whether it existed. */
export async function deleteSavedReply(db: Queryable, target: { workspaceId: string; ownerId: string | null; id: string }): Promise<boolean> {
  const { rows } = await db.query(`DELETE FROM saved_replies WHERE id = $1 AND workspace_id = $2 AND ${ofScope(target.ownerId)} RETURNING id`, [
    target.id,
    target.workspaceId,
    target.ownerId,
  ]);
  return rows.length > 0;
}

export const ownerOf = (scope: SavedReplyScope, operatorId: string): string | null => (scope === "workspace" ? null : operatorId);
