import { MESSAGES_PAGE_DEFAULT, type messagesSinceResponseSchema } from "@frontdesk/contracts";
import type { z } from "zod";
import type { Services } from "../services.js";
import type { SignedInOperator } from "./authenticate-operator.js";
import { findConsoleConversation, listConsoleMessagesAfter } from "./conversation-detail-repository.js";
import { conversationNotFound } from "./show-conversation.js";

/**
 * GET /console/conversations/{id}/messages?after_seq=N: the messages above seq N, gapless and in
 * seq order, with the conversation's state (apply it when its `updated_seq` is above N). The
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
  const { messages, hasMore } = await listConsoleMessagesAfter(services.db, conversation.id, query.after_seq ?? 0, query.limit ?? MESSAGES_PAGE_DEFAULT);
  return {
    messages,
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
