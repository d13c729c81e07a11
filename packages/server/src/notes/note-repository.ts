import type { ConversationNote } from "@frontdesk/contracts";
import { countRemoved } from "../db/count-removed.js";
import type { Queryable } from "../db/database.js";
import { newId } from "../db/ids.js";
import { textArray } from "../db/text-array.js";
import { iso } from "../db/timestamps.js";

/** A note to store: its conversation's place (`afterSeq`), its author and the operators it mentions. */
export interface NewNote {
  workspaceId: string;
  conversationId: string;
  author: { id: string; name: string };
  content: string;
  mentions: { id: string; name: string }[];
  afterSeq: number;
}

interface NoteRow {
  id: string;
  conversation_id: string;
  operator_id: string | null;
  author_name: string;
  content: string;
  mentions: { id: string; name: string }[];
  after_seq: number;
  created_at: Date;
}

const COLUMNS = "id, conversation_id, operator_id, author_name, content, mentions, after_seq, created_at";

const toNote = (row: NoteRow): ConversationNote => ({
  id: row.id,
  conversation_id: row.conversation_id,
  content: row.content,
  author: { id: row.operator_id, name: row.author_name },
  mentions: row.mentions,
  after_seq: row.after_seq,
  created_at: iso(row.created_at),
});

export async function insertNote(tx: Queryable, note: NewNote): Promise<ConversationNote> {
  const { rows } = await tx.query<NoteRow>(
    `INSERT INTO conversation_notes (id, workspace_id, conversation_id, operator_id, author_name, content, mentions, after_seq)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8)
     RETURNING ${COLUMNS}`,
    [newId("note"), note.workspaceId, note.conversationId, note.author.id, note.author.name, note.content, JSON.stringify(note.mentions), note.afterSeq],
  );
  return toNote(rows[0]!);
}

/** The conversation's latest `limit` notes, oldest first (conversation_notes_conversation_idx). */
export async function listConversationNotes(db: Queryable, workspaceId: string, conversationId: string, limit: number): Promise<ConversationNote[]> {
  const { rows } = await db.query<NoteRow>(
    `SELECT ${COLUMNS} FROM conversation_notes WHERE conversation_id = $1 AND workspace_id = $2 ORDER BY created_at DESC, id DESC LIMIT $3`,
    [conversationId, workspaceId, limit],
  );
  return rows.reverse().map(toNote);
}

/** The workspace's note, or null (a mention's push alert reads it when it is sent). */
export async function findNote(db: Queryable, workspaceId: string, noteId: string): Promise<ConversationNote | null> {
  const { rows } = await db.query<NoteRow>(`SELECT ${COLUMNS} FROM conversation_notes WHERE id = $1 AND workspace_id = $2`, [noteId, workspaceId]);
  return rows[0] ? toNote(rows[0]) : null;
}

/** Erasure and retention: the notes of these conversations of the workspace (conversation_notes_conversation_idx); how many. */
export async function deleteNotesOfConversations(tx: Queryable, workspaceId: string, conversationIds: readonly string[]): Promise<number> {
  if (conversationIds.length === 0) return 0;
  return countRemoved(tx, `DELETE FROM conversation_notes WHERE conversation_id = ANY($2::text[]) AND workspace_id = $1`, [workspaceId, textArray(conversationIds)]);
}
