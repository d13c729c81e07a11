import type { EventBody } from "@frontdesk/contracts";
import type { Services } from "../services.js";
import type { WidgetSession } from "./authenticate-session.js";
import { insertEvent } from "./event-repository.js";

/** POST /events: one row of client telemetry (launcher opened, CTA clicked, …). */
export async function recordEvent(services: Services, session: WidgetSession, body: EventBody): Promise<{ id: string; event: string }> {
  const { conversation } = session;
  const id = await insertEvent(services.db, {
    workspaceId: conversation.workspaceId,
    agentId: conversation.agentId,
    conversationId: conversation.id,
    visitorId: conversation.visitorId,
    event: body.event,
    ruleId: body.rule_id ?? null,
    metadata: body.metadata ?? {},
  });
  return { id, event: body.event };
}
