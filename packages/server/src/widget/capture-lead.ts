import type { LeadBody } from "@frontdesk/contracts";
import { lockSessionVisitor, sessionEnded, touchConversationActivity } from "../conversations/conversations.js";
import type { Services } from "../services.js";
import type { WidgetSession } from "./authenticate-session.js";
import { upsertLead } from "./lead-repository.js";


/**
 * POST /leads: stores the visitor's contact details, deduplicated by agent and e-mail. `lead.saved`
 * is raised in the lead's transaction (its webhook event: `lead.created` / `lead.updated`; the
 * workspace's consoles hear `lead.captured` for a new lead, `lead.updated` for a repeat, once
 * committed). 401 once the visitor is erased.
 */
export async function captureLead(services: Services, session: WidgetSession, body: LeadBody) {
  const { conversation } = session;
  return services.db.transaction(async (tx) => {
    // The visitor first, as erasure locks them (visitor-lock.ts): the lead's foreign keys lock the conversation, then the visitor.
    if (!(await lockSessionVisitor(tx, conversation.id))) throw sessionEnded();
    await touchConversationActivity(tx, conversation.id);
    const stored = await upsertLead(tx, {
      workspaceId: conversation.workspaceId,
      agentId: conversation.agentId,
      conversationId: conversation.id,
      visitorId: conversation.visitorId,
      email: body.email,
      name: body.name ?? null,
      phone: body.phone ?? null,
      fields: body.fields ?? {},
    });
    await services.events.raise(tx, { type: "lead.saved", workspaceId: conversation.workspaceId, lead: stored.lead, created: stored.created });
    return stored;
  });
}
