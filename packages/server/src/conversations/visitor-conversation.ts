import { VISITOR_MESSAGES_PAGE_MAX, type ConversationMessage } from "@frontdesk/contracts";
import { AppError } from "../http/app-error.js";
import type { Services } from "../services.js";
import type { WidgetSession } from "../widget/authenticate-session.js";
import { closeConversation } from "./close-conversation.js";
import { findConversationState, type ConversationState } from "./conversation-state-repository.js";
import { listMessagesAfterSeq } from "./message-listing-repository.js";
import { operatorsOnline } from "./operators-online.js";
import { raiseVisitorSeenSeq } from "./visitor-seen-repository.js";
import { withAttachments } from "../attachments/attachments.js";

export interface VisitorConversation {
  status: ConversationState["status"];
  assignee: { name: string } | null;
  operators_online: boolean;
  human_requested_at: string | null;
  updated_seq: number | null;
}

async function present(services: Services, state: ConversationState): Promise<VisitorConversation> {
  return {
    status: state.status,
    assignee: state.assignee ? { name: state.assignee.name } : null,
    operators_online: await operatorsOnline(services, state.workspaceId),
    human_requested_at: state.humanRequestedAt,
    updated_seq: state.updatedSeq,
  };
}

/** GET /conversation: the state of the session's conversation, and whether any operator is online. */
export async function readVisitorConversation(services: Services, session: WidgetSession): Promise<VisitorConversation> {
  const state = await findConversationState(services.db, session.conversation.workspaceId, session.conversation.id);
  if (!state) throw new AppError("invalid_token", "The session token is not valid.");
  return present(services, state);
}

/** POST /conversation/close: the visitor ends the conversation (nothing changes when it is closed already). */
export async function closeVisitorConversation(services: Services, session: WidgetSession): Promise<VisitorConversation> {
  const state = await closeConversation(services, { workspaceId: session.conversation.workspaceId, conversationId: session.conversation.id, by: "visitor" });
  return present(services, state);
}

/** GET /conversation/messages?after_seq=N: the messages the visitor missed, in seq order (see listMessagesAfterSeq), system messages included. */
export async function listVisitorMessages(
  services: Services,
  session: WidgetSession,
  query: { after_seq?: number | undefined; limit?: number | undefined },
): Promise<{ messages: ConversationMessage[]; has_more: boolean }> {
  const { messages, hasMore } = await listMessagesAfterSeq(services.db, {
    workspaceId: session.conversation.workspaceId,
    conversationId: session.conversation.id,
    afterSeq: query.after_seq ?? 0,
    limit: query.limit ?? VISITOR_MESSAGES_PAGE_MAX,
  });
  // The widget fetched them: they are seen (no e-mail will bring them again).
  const lastSeq = messages.reduce((highest, message) => Math.max(highest, message.seq ?? 0), 0);
  if (lastSeq > 0) await raiseVisitorSeenSeq(services.db, session.conversation.id, lastSeq);
  return {
    messages: await withAttachments(services, session.conversation.id, messages.map(
      (message): ConversationMessage => ({
        id: message.id,
        seq: message.seq,
        role: message.role,
        content: message.content,
        code: message.code,
        citations: message.citations,
        author: message.author ? { name: message.author.name } : null,
        created_at: message.createdAt,
        ...(message.curatedAnswerId !== null ? { curated: true } : {}),
      }),
    ), "visitor"),
    has_more: hasMore,
  };
}

/** POST /conversation/seen: the widget showed the messages up to `seq` (an operator's reply received live); no e-mail repeats them. */
export async function markVisitorSeen(services: Services, session: WidgetSession, seq: number): Promise<void> {
  await raiseVisitorSeenSeq(services.db, session.conversation.id, seq);
}
