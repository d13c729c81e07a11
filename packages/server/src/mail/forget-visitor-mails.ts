import type { Queryable } from "../db/database.js";
import { deleteMailsAbout } from "./mail-repository.js";
import { deleteDigestItemsAbout } from "./mail-preference-repository.js";
import { deleteMailChecksAbout } from "./mail-check-repository.js";
import { deleteInboundReceiptsAbout } from "./inbound-mail-repository.js";

/**
 * Erasure's (and retention's) part in e-mail, in its transaction: every mail about the visitors or
 * their conversations, waiting, queued, sent or failed, with its attempts, the digest items and the
 * pending checks about them, and the receipts of their replies by e-mail. A `send-mail` or `mail-check` job left behind finds no row and ends. A mail already handed to the
 * SMTP server when erasure commits is out of our hands: the attempt under way completes, and its
 * record finds no row to write. Returns how many mails were deleted.
 */
export async function forgetVisitorMails(tx: Queryable, workspaceId: string, about: { visitorIds: string[]; conversationIds: string[] }): Promise<number> {
  await deleteMailChecksAbout(tx, workspaceId, about);
  await deleteDigestItemsAbout(tx, workspaceId, about);
  await deleteInboundReceiptsAbout(tx, workspaceId, about);
  return deleteMailsAbout(tx, workspaceId, about);
}
