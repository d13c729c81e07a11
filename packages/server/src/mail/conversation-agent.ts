import { findConversationOutline } from "../conversations/visitor-seen.js";
import type { Queryable } from "../db/database.js";
import type { Agent } from "../tenants/agent.js";
import { findAgent } from "../tenants/agents.js";

/** The agent of a conversation (its name and language make the mail), or null when either is gone. */
export async function findAgentOfConversation(db: Queryable, workspaceId: string, conversationId: string): Promise<Agent | null> {
  const conversation = await findConversationOutline(db, workspaceId, conversationId);
  return conversation ? findAgent(db, conversation.agentId) : null;
}
