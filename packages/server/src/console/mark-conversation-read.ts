import type { Services } from "../services.js";
import type { SignedInOperator } from "./authenticate-operator.js";
import { markConversationRead as moveReadMarker } from "../conversations/conversations.js";
import { conversationNotFound } from "./show-conversation.js";

/**
 * POST /console/conversations/{id}/read: the operator has read the conversation up to `seq` (the
 * last message the console showed; its latest seq when omitted). The marker is per operator and
 * only moves forward; the unread count is the visitor messages above it.
 */
export async function markConversationRead(services: Services, operator: SignedInOperator, conversationId: string, seq: number | null) {
  const marked = await moveReadMarker(services.db, operator.workspaceId, operator.id, conversationId, seq);
  if (!marked) throw conversationNotFound();
  return { conversation_id: conversationId, last_read_seq: marked.lastReadSeq, unread_count: marked.unreadCount };
}
