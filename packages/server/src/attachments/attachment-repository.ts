import type { AttachmentMediaType } from "@frontdesk/contracts";
import { byteaParameter } from "../db/bytea-parameter.js";
import type { Queryable } from "../db/database.js";
import { textArray } from "../db/text-array.js";
import { iso } from "../db/timestamps.js";

/** Who sent a file: the conversation's visitor, or an operator of its workspace. */
export type Uploader = { kind: "visitor" } | { kind: "operator"; operatorId: string };

/** An attachment as stored (table `attachments`), without its bytes. */
export interface StoredAttachment {
  id: string;
  workspaceId: string;
  conversationId: string;
  messageId: string | null;
  uploadedBy: "visitor" | "operator";
  filename: string;
  mediaType: AttachmentMediaType;
  bytes: number;
  createdAt: string;
}

export interface StoredAttachmentContent extends StoredAttachment {
  content: Buffer;
}

interface AttachmentRow {
  id: string;
  workspace_id: string;
  conversation_id: string;
  message_id: string | null;
  uploaded_by: "visitor" | "operator";
  filename: string;
  media_type: AttachmentMediaType;
  bytes: number;
  created_at: Date;
  content?: Uint8Array;
}

const COLUMNS = "id, workspace_id, conversation_id, message_id, uploaded_by, filename, media_type, bytes, created_at";

const toAttachment = (row: AttachmentRow): StoredAttachment => ({
  id: row.id,
  workspaceId: row.workspace_id,
  conversationId: row.conversation_id,
  messageId: row.message_id,
  uploadedBy: row.uploaded_by,
  filename: row.filename,
  mediaType: row.media_type,
  bytes: row.bytes,
  createdAt: iso(row.created_at),
});

export async function insertAttachment(
  db: Queryable,
  attachment: { id: string; workspaceId: string; conversationId: string; uploader: Uploader; filename: string; mediaType: AttachmentMediaType; content: Uint8Array },
): Promise<StoredAttachment> {
  const { rows } = await db.query<AttachmentRow>(
    `INSERT INTO attachments (id, workspace_id, conversation_id, uploaded_by, operator_id, filename, media_type, bytes, content)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, decode($9, 'base64')) RETURNING ${COLUMNS}`,
    [
      attachment.id,
      attachment.workspaceId,
      attachment.conversationId,
      attachment.uploader.kind,
      attachment.uploader.kind === "operator" ? attachment.uploader.operatorId : null,
      attachment.filename,
      attachment.mediaType,
      attachment.content.byteLength,
      byteaParameter(attachment.content),
    ],
  );
  return toAttachment(rows[0]!);
}

/** An attachment with its bytes, by its id (the served file; the route checks who may have it). */
export async function findAttachmentContent(db: Queryable, id: string): Promise<StoredAttachmentContent | null> {
  const { rows } = await db.query<AttachmentRow>(`SELECT ${COLUMNS}, content FROM attachments WHERE id = $1`, [id]);
  const row = rows[0];
  // PGlite hands bytea back as a Uint8Array, pg as a Buffer: one shape for the callers.
  return row ? { ...toAttachment(row), content: Buffer.from(row.content ?? new Uint8Array()) } : null;
}

/**
 * Gives the uploads `ids` of the conversation that are not yet sent, and were uploaded by
 * `uploader` (the visitor; or that operator), to the message `messageId`. Returns those it gave:
 * fewer than asked means some id was not such an upload.
 */
export async function claimAttachments(
  db: Queryable,
  claim: { workspaceId: string; conversationId: string; messageId: string; uploader: Uploader; ids: readonly string[] },
): Promise<StoredAttachment[]> {
  const { rows } = await db.query<AttachmentRow>(
    `UPDATE attachments SET message_id = $3
     WHERE id = ANY($4::text[]) AND workspace_id = $1 AND conversation_id = $2 AND message_id IS NULL
       AND uploaded_by = $5::text AND ($5::text = 'visitor' OR operator_id = $6::text)
     RETURNING ${COLUMNS}`,
    [claim.workspaceId, claim.conversationId, claim.messageId, textArray(claim.ids), claim.uploader.kind, claim.uploader.kind === "operator" ? claim.uploader.operatorId : null],
  );
  const order = new Map(claim.ids.map((id, index) => [id, index]));
  return rows.map(toAttachment).sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
}

/**
 * The attachments sent with the messages `messageIds`, oldest first: of one conversation, or of the
 * workspace's conversations (the inbox's previews), read through the message index.
 */
export async function listAttachmentsOfMessages(
  db: Queryable,
  scope: { conversationId: string } | { workspaceId: string },
  messageIds: readonly string[],
): Promise<StoredAttachment[]> {
  if (messageIds.length === 0) return [];
  const [column, value] = "conversationId" in scope ? ["conversation_id", scope.conversationId] : ["workspace_id", scope.workspaceId];
  const { rows } = await db.query<AttachmentRow>(
    `SELECT ${COLUMNS} FROM attachments WHERE message_id = ANY($2::text[]) AND ${column} = $1 ORDER BY created_at, id`,
    [value, textArray(messageIds)],
  );
  return rows.map(toAttachment);
}

/** Every attachment of the workspace's conversations `conversationIds`, sent or not, oldest first (the visitor's export). */
export async function listAttachmentsOfConversations(db: Queryable, workspaceId: string, conversationIds: readonly string[]): Promise<StoredAttachment[]> {
  if (conversationIds.length === 0) return [];
  const { rows } = await db.query<AttachmentRow>(
    `SELECT ${COLUMNS} FROM attachments WHERE conversation_id = ANY($2::text[]) AND workspace_id = $1 ORDER BY created_at, id`,
    [workspaceId, textArray(conversationIds)],
  );
  return rows.map(toAttachment);
}

/** Deletes every attachment of the workspace's conversations `conversationIds` (erasure, retention); the count deleted. */
export async function deleteAttachmentsOfConversations(db: Queryable, workspaceId: string, conversationIds: readonly string[]): Promise<number> {
  if (conversationIds.length === 0) return 0;
  const { rows } = await db.query<{ n: number }>(
    `WITH deleted AS (DELETE FROM attachments WHERE conversation_id = ANY($2::text[]) AND workspace_id = $1 RETURNING 1) SELECT count(*)::int AS n FROM deleted`,
    [workspaceId, textArray(conversationIds)],
  );
  return rows[0]?.n ?? 0;
}
