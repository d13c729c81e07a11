/**
 * Attachments' door: what the other domains call. conversations/ gives uploads to the message
 * that sends them (in the message's transaction) and reads a message list's attachments; privacy/
 * deletes them with their conversations (erasure, retention) and lists them for the export.
 */
import type { Attachment } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { AppError } from "../http/app-error.js";
import type { Services } from "../services.js";
import { claimAttachments, listAttachmentsOfMessages, type StoredAttachment, type Uploader } from "./attachment-repository.js";
import { presentAttachment, type AttachmentAudience, type AttachmentLinkContext } from "./present-attachment.js";

export { deleteAttachmentsOfConversations, listAttachmentsOfConversations } from "./attachment-repository.js";
export type { StoredAttachment, Uploader } from "./attachment-repository.js";
export { presentAttachment, type AttachmentAudience, type AttachmentLinkContext } from "./present-attachment.js";
export { textWithFiles } from "./text-with-files.js";

/**
 * Gives the uploads `ids` to the message just stored, in its transaction: each must be an upload
 * of this conversation by this sender not sent yet; otherwise 404 `attachment_not_found` and the
 * transaction (the message with it) rolls back. Returns them presented for the visitor (their
 * links go out on the conversation's channel, which the visitor shares with the operators).
 */
export async function sendAttachments(
  services: Services,
  tx: Queryable,
  send: { workspaceId: string; conversationId: string; messageId: string; uploader: Uploader; ids: readonly string[] | undefined },
): Promise<Attachment[] | undefined> {
  const ids = send.ids ?? [];
  if (ids.length === 0) return undefined;
  const claimed = await claimAttachments(tx, { ...send, ids });
  if (claimed.length !== ids.length) {
    const missing = ids.filter((id) => !claimed.some((attachment) => attachment.id === id));
    throw new AppError("attachment_not_found", `No upload of this conversation waits to be sent with the id ${missing.join(", ")}.`);
  }
  return claimed.map((attachment) => presentAttachment(linkContext(services), attachment, "visitor"));
}

export const linkContext = (services: Services): AttachmentLinkContext => ({ publicUrl: services.config.publicUrl, links: services.attachmentLinks });

/**
 * The names of the files sent with each of the messages `messageIds` (of one conversation, or of the
 * workspace's: see listAttachmentsOfMessages), in the order they were sent, for texts that can only
 * name them (e-mails, transcripts, the inbox's previews): one indexed query.
 */
export async function attachmentNamesOfMessages(
  db: Queryable,
  scope: { conversationId: string } | { workspaceId: string },
  messageIds: readonly string[],
): Promise<Map<string, string[]>> {
  const names = new Map<string, string[]>();
  for (const attachment of await listAttachmentsOfMessages(db, scope, messageIds)) {
    if (attachment.messageId === null) continue;
    names.set(attachment.messageId, [...(names.get(attachment.messageId) ?? []), attachment.filename]);
  }
  return names;
}

/**
 * `messages` with the attachments sent with each (`attachments`, only on those that have some),
 * presented for `audience`: one indexed query for the list.
 */
export async function withAttachments<M extends { id: string }>(
  services: Services,
  conversationId: string,
  messages: M[],
  audience: AttachmentAudience,
): Promise<(M & { attachments?: Attachment[] })[]> {
  const found = await listAttachmentsOfMessages(services.db, { conversationId }, messages.map((message) => message.id));
  if (found.length === 0) return messages;
  const byMessage = new Map<string, StoredAttachment[]>();
  for (const attachment of found) {
    if (attachment.messageId === null) continue;
    byMessage.set(attachment.messageId, [...(byMessage.get(attachment.messageId) ?? []), attachment]);
  }
  const context = linkContext(services);
  return messages.map((message) => {
    const attached = byMessage.get(message.id);
    return attached ? { ...message, attachments: attached.map((attachment) => presentAttachment(context, attachment, audience)) } : message;
  });
}
