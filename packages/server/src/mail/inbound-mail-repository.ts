import type { Queryable } from "../db/database.js";
import { textArray } from "../db/text-array.js";

/** An inbound mail that entered a conversation. */
export interface InboundReceipt {
  inboundKey: string;
  workspaceId: string;
  conversationId: string;
  visitorId: string;
  messageId: string;
  channel: "imap" | "mailgun" | "postmark";
}

/** Records the mail as received; false when it was already (the same Message-ID, polled or posted again): store nothing. */
export async function insertInboundReceipt(tx: Queryable, receipt: InboundReceipt): Promise<boolean> {
  const { rows } = await tx.query(
    `INSERT INTO mail_inbound (inbound_key, workspace_id, conversation_id, visitor_id, message_id, channel) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (inbound_key) DO NOTHING RETURNING inbound_key`,
    [receipt.inboundKey, receipt.workspaceId, receipt.conversationId, receipt.visitorId, receipt.messageId, receipt.channel],
  );
  return rows.length > 0;
}

/** Erasure's part: the receipts of the visitors' replies. */
export async function deleteInboundReceiptsAbout(tx: Queryable, workspaceId: string, about: { visitorIds: string[]; conversationIds: string[] }): Promise<void> {
  if (about.visitorIds.length > 0) await tx.query(`DELETE FROM mail_inbound WHERE workspace_id = $1 AND visitor_id = ANY($2::text[])`, [workspaceId, textArray(about.visitorIds)]);
  if (about.conversationIds.length > 0) await tx.query(`DELETE FROM mail_inbound WHERE workspace_id = $1 AND conversation_id = ANY($2::text[])`, [workspaceId, textArray(about.conversationIds)]);
}
