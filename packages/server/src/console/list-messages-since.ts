import { MESSAGES_PAGE_DEFAULT, type messagesSinceResponseSchema } from "@frontdesk/contracts";
import type { z } from "zod";
import type { Services } from "../services.js";
import type { SignedInOperator } from "./authenticate-operator.js";
import { listMessagesAfterSeq } from "../conversations/message-listing.js";
import { findConsoleConversation } from "../conversations/conversations.js";
import { conversationNotFound } from "./show-conversation.js";
import { withAttachments } from "../attachments/attachments.js";

/**
 * GET /console/conversations/{id}/messages?after_seq=N: the messages above seq N, gapless and in
 * seq order (see listMessagesAfterSeq), with the conversation's state (apply it when its `updated_seq` is above N). The
 * state is read first: a message stored in between is then in the list, never missed.
 */
export async function listMessagesSince(
  services: Services,
  operator: SignedInOperator,
  conversationId: string,
  query: { after_seq?: number | undefined; limit?: number | undefined },
): Promise<z.infer<typeof messagesSinceResponseSchema>["data"]> {
  const conversation = await findConsoleConversation(services.db, operator.workspaceId, operator.id, conversationId);
  if (!conversation) throw conversationNotFound();
  const { messages, hasMore } = await listMessagesAfterSeq(services.db, {
    workspaceId: operator.workspaceId,
    conversationId: conversation.id,
    afterSeq: query.after_seq ?? 0,
    limit: query.limit ?? MESSAGES_PAGE_DEFAULT,
  });
  return {
    messages: await withAttachments(services, conversation.id, messages.map((message) => ({
      id: message.id,
      seq: message.seq,
      role: message.role,
      content: message.content,
      code: message.code,
      citations: message.citations,
      low_confidence: message.lowConfidence,
      author: message.author,
      created_at: message.createdAt,
      curated_answer_id: message.curatedAnswerId,
    })), "console"),
    has_more: hasMore,
    conversation: {
      status: conversation.status,
      assignee: conversation.assignee,
      human_requested_at: conversation.humanRequestedAt,
      seq: conversation.seq,
      updated_seq: conversation.updatedSeq,
    },
  };
}
