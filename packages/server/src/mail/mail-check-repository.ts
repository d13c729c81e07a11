import type { Queryable } from "../db/database.js";
import { newId } from "../db/ids.js";
import { textArray } from "../db/text-array.js";

export type MailCheckKind = "away_operators" | "unseen_by_visitor" | "unseen_by_operator";

/** A decision to take at `dueAt` about a conversation's message `seq`. */
export interface MailCheck {
  id: string;
  workspaceId: string;
  kind: MailCheckKind;
  conversationId: string;
  visitorId: string;
  seq: number;
  dueAt: Date;
}

export async function insertMailCheck(tx: Queryable, check: Omit<MailCheck, "id">): Promise<string> {
  const id = newId("mck");
  await tx.query(
    `INSERT INTO mail_checks (id, workspace_id, kind, conversation_id, visitor_id, seq, due_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [id, check.workspaceId, check.kind, check.conversationId, check.visitorId, check.seq, check.dueAt],
  );
  return id;
}

export async function findMailCheck(db: Queryable, workspaceId: string, checkId: string): Promise<MailCheck | null> {
  const { rows } = await db.query<{ id: string; workspace_id: string; kind: MailCheckKind; conversation_id: string; visitor_id: string; seq: string | number; due_at: Date | string }>(
    `SELECT id, workspace_id, kind, conversation_id, visitor_id, seq, due_at FROM mail_checks WHERE id = $1 AND workspace_id = $2`,
    [checkId, workspaceId],
  );
  const row = rows[0];
  return row
    ? { id: row.id, workspaceId: row.workspace_id, kind: row.kind, conversationId: row.conversation_id, visitorId: row.visitor_id, seq: Number(row.seq), dueAt: new Date(row.due_at) }
    : null;
}

/** The check is done: whatever it queued commits with its deletion. */
export async function deleteMailCheck(tx: Queryable, checkId: string): Promise<void> {
  await tx.query(`DELETE FROM mail_checks WHERE id = $1`, [checkId]);
}

/** Erasure's part: the pending checks about the visitors or conversations. */
export async function deleteMailChecksAbout(tx: Queryable, workspaceId: string, about: { visitorIds: string[]; conversationIds: string[] }): Promise<void> {
  if (about.visitorIds.length > 0) await tx.query(`DELETE FROM mail_checks WHERE workspace_id = $1 AND visitor_id = ANY($2::text[])`, [workspaceId, textArray(about.visitorIds)]);
  if (about.conversationIds.length > 0) await tx.query(`DELETE FROM mail_checks WHERE workspace_id = $1 AND conversation_id = ANY($2::text[])`, [workspaceId, textArray(about.conversationIds)]);
}
