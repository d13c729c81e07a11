import type { LeadBody } from "@frontdesk/contracts";
import type { Services } from "../services.js";
import type { WidgetSession } from "./authenticate-session.js";
import { upsertLead } from "./lead-repository.js";

/** POST /leads: stores the visitor's contact details, deduplicated by agent and e-mail. */
export async function captureLead(services: Services, session: WidgetSession, body: LeadBody) {
  const { conversation } = session;
  return upsertLead(services.db, {
      workspaceId: conversation.workspaceId,
      agentId: conversation.agentId,
      conversationId: conversation.id,
      visitorId: conversation.visitorId,
      email: body.email,
      name: body.name ?? null,
      phone: body.phone ?? null,
    fields: body.fields ?? {},
  });
}
