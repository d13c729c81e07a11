import { fillSavedReply } from "@frontdesk/contracts";
import { findConversationState } from "../conversations/conversation-states.js";
import type { Queryable } from "../db/database.js";
import { AppError } from "../http/app-error.js";
import { findWorkspaceAgent } from "../tenants/agents.js";
import { findVisitorLead } from "../widget/leads.js";
import { findVisibleSavedReply } from "./saved-reply-repository.js";

/**
 * POST /console/saved-replies/{id}/render: the reply's text with its variables filled from the
 * conversation: `visitor.name` is the name the visitor left with their lead (else the variable's
 * fallback, or nothing), `agent.name` the conversation's agent, `operator.name` the signed-in
 * operator. Rendered on the server so that the console and API clients fill them alike. A reply
 * the operator does not see, or another workspace's conversation, is 404.
 */
export async function renderSavedReply(
  db: Queryable,
  operator: { id: string; workspaceId: string; name: string },
  id: string,
  conversationId: string,
): Promise<{ id: string; content: string }> {
  const reply = await findVisibleSavedReply(db, { workspaceId: operator.workspaceId, operatorId: operator.id }, id);
  if (!reply) throw new AppError("not_found", `No saved reply ${id} of yours or of this workspace.`);
  const conversation = await findConversationState(db, operator.workspaceId, conversationId);
  if (!conversation) throw new AppError("conversation_not_found", "No conversation with this id in your workspace.");
  const [agent, lead] = await Promise.all([findWorkspaceAgent(db, operator.workspaceId, conversation.agentId), findVisitorLead(db, conversation.visitorId)]);
  return {
    id: reply.id,
    content: fillSavedReply(reply.content, { "visitor.name": lead?.name ?? null, "agent.name": agent?.name ?? null, "operator.name": operator.name }),
  };
}
