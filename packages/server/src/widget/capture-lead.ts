import type { LeadBody } from "@frontdesk/contracts";
import type { Services } from "../services.js";
import type { WidgetSession } from "./authenticate-session.js";
import { upsertLead } from "./lead-repository.js";

/**
 * POST /leads: stores the visitor's contact details, deduplicated by agent and e-mail, then tells
 * the workspace's consoles (`lead.captured` for a new lead, `lead.updated` for a repeat).
 */
export async function captureLead(services: Services, session: WidgetSession, body: LeadBody) {
  const { conversation } = session;
  const captured = await upsertLead(services.db, {
    workspaceId: conversation.workspaceId,
    agentId: conversation.agentId,
    conversationId: conversation.id,
    visitorId: conversation.visitorId,
    email: body.email,
    name: body.name ?? null,
    phone: body.phone ?? null,
    fields: body.fields ?? {},
  });
  const { lead, created } = captured;
  services.bus.publish({
    type: created ? "lead.captured" : "lead.updated",
    workspaceId: conversation.workspaceId,
    agentId: lead.agent_id,
    leadId: lead.id,
    conversationId: lead.conversation_id,
    at: lead.updated_at,
  });
  return captured;
}
