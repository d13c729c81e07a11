import { attachmentNamesOfMessages, textWithFiles } from "../attachments/attachments.js";
import type { Queryable } from "../db/database.js";

/** The texts of the conversation's `messages` for an e-mail, each with the files sent with it named (one query for the list). */
export async function messageTexts(db: Queryable, conversationId: string, messages: readonly { id: string; content: string }[]): Promise<string[]> {
  const files = await attachmentNamesOfMessages(
    db,
    { conversationId },
    messages.map((message) => message.id),
  );
  return messages.map((message) => textWithFiles(message.content, files.get(message.id)));
}
