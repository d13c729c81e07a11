import type { ConversationNote } from "@frontdesk/contracts";
import { lockConversationHead } from "../conversations/conversations.js";
import { AppError } from "../http/app-error.js";
import { notifyOperators } from "../inbox/notifications.js";
import type { Services } from "../services.js";
import { listWorkspaceOperators } from "../tenants/operators.js";
import { mentionedOperators } from "./mentioned-operators.js";
import { insertNote } from "./note-repository.js";

/** The note's first characters a mention's notification carries. */
const EXCERPT_CHARACTERS = 200;

/**
 * POST /console/conversations/{id}/notes: any operator of the workspace writes a note in any of its
 * conversations, whatever its state (a closed one too). The note is placed after the conversation's
 * latest message; the operators it mentions (`@Name`, the author aside) get an inbox notification
 * (kind `note.mentioned`) in the same transaction, and `note.added` is raised there: e-mail and
 * push alert the mentioned where set up, the workspace's channel tells the consoles. Another
 * workspace's conversation is 404.
 */
export async function addNote(
  services: Pick<Services, "db" | "events">,
  author: { id: string; name: string; workspaceId: string },
  conversationId: string,
  content: string,
): Promise<ConversationNote> {
  return services.db.transaction(async (tx) => {
    const conversation = await lockConversationHead(tx, author.workspaceId, conversationId);
    if (!conversation) throw new AppError("conversation_not_found", "No conversation with this id in your workspace.");
    const operators = await listWorkspaceOperators(tx, author.workspaceId);
    const mentioned = mentionedOperators(content, operators).filter((operator) => operator.id !== author.id);
    const note = await insertNote(tx, {
      workspaceId: author.workspaceId,
      conversationId: conversation.id,
      author: { id: author.id, name: author.name },
      content,
      mentions: mentioned.map((operator) => ({ id: operator.id, name: operator.name })),
      afterSeq: conversation.seq,
    });
    const excerpt = content.length > EXCERPT_CHARACTERS ? `${content.slice(0, EXCERPT_CHARACTERS - 1)}…` : content;
    const notifications = await notifyOperators(tx, {
      workspaceId: author.workspaceId,
      operatorIds: mentioned.map((operator) => operator.id),
      kind: "note.mentioned",
      conversationId: conversation.id,
      payload: { note_id: note.id, author: { id: author.id, name: author.name }, excerpt },
    });
    await services.events.raise(tx, {
      type: "note.added",
      conversation: { workspaceId: conversation.workspaceId, agentId: conversation.agentId, conversationId: conversation.id, visitorId: conversation.visitorId },
      note: { id: note.id, content, author: { id: author.id, name: author.name }, afterSeq: note.after_seq, createdAt: note.created_at },
      mentioned: notifications.map((notification) => ({
        operatorId: notification.operatorId,
        name: mentioned.find((operator) => operator.id === notification.operatorId)?.name ?? "",
        notificationId: notification.id,
      })),
    });
    return note;
  });
}
